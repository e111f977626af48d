import DumpReader
import Foundation
import Testing
import TestSupport

/// What `--from-dump` agrees to read: regular files up to the size limit, nothing else.
@Suite("Dump files")
struct DumpFileTests {
    @Test("a regular file is read whole")
    func regularFile() async throws {
        try await withTemporaryDirectory("dumpfile") { directory in
            let file = directory.appendingPathComponent("dump.txt")
            try Data("Sink #0\n\tName: x\n".utf8).write(to: file)
            #expect(try DumpFile.read(atPath: file.path) == "Sink #0\n\tName: x\n")
        }
    }

    @Test("/dev/zero, a FIFO and a directory are refused before anything is read")
    func notRegular() async throws {
        #expect(throws: DumpFileError.notARegularFile(path: "/dev/zero", kind: "a character device")) {
            try DumpFile.read(atPath: "/dev/zero")
        }
        try await withTemporaryDirectory("dumpfile") { directory in
            let fifo = directory.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(throws: DumpFileError.notARegularFile(path: fifo, kind: "a FIFO")) { try DumpFile.read(atPath: fifo) }
            #expect(throws: DumpFileError.notARegularFile(path: directory.path, kind: "a directory")) {
                try DumpFile.read(atPath: directory.path)
            }
        }
    }

    @Test("a file over the limit is refused with the limit in the message")
    func tooLarge() async throws {
        try await withTemporaryDirectory("dumpfile") { directory in
            let file = directory.appendingPathComponent("big.txt")
            try Data(repeating: UInt8(ascii: "a"), count: 2 << 20 + 1).write(to: file)
            #expect(throws: DumpFileError.tooLarge(path: file.path, limit: 2 << 20)) {
                try DumpFile.read(atPath: file.path, limit: 2 << 20)
            }
        }
        #expect("\(DumpFileError.tooLarge(path: "x", limit: DumpFile.sizeLimit))" == "x is larger than 16 MiB: not a dump")
    }

    @Test("a missing file says why")
    func missing() {
        #expect(throws: DumpFileError.cannotOpen(path: "/nonexistent/dump.txt", reason: "No such file or directory")) {
            try DumpFile.read(atPath: "/nonexistent/dump.txt")
        }
    }
}
