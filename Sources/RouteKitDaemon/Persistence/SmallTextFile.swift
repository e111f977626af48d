import Glibc

/// Reads a small text file a person or the daemon wrote (the configuration, the state file):
/// a regular file, at most ``limit`` bytes, in UTF-8. A FIFO or a device given by mistake is
/// refused rather than read forever.
package enum SmallTextFile {
    /// The largest file read: far beyond any configuration or state file.
    package static let limit = 1 << 20

    /// Why a file could not be read.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// There is no file at the path.
        case missing
        /// It is a directory, a FIFO, a device...
        case notRegularFile
        /// It is larger than ``SmallTextFile/limit``.
        case tooLarge(Int)
        /// It is not UTF-8 text: the line (from 1) of the first byte that is not.
        case notText(line: Int)
        /// The system refused (permissions, I/O): `strerror`'s words.
        case unreadable(String)

        /// For people.
        package var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegularFile: "not a regular file"
            case .tooLarge(let size): "\(size) bytes, larger than \(SmallTextFile.limit) bytes"
            case .notText(let line): "line \(line) is not UTF-8 text"
            case .unreadable(let reason): reason
            }
        }
    }

    /// The text of the file at `path`.
    package static func read(atPath path: String) throws(Failure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        guard status.st_size <= limit else { throw .tooLarge(Int(status.st_size)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= limit else { throw .tooLarge(bytes.count) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(line: firstInvalidLine(bytes)) }
        return text
    }

    /// The line (from 1) of the first line of `bytes` that is not UTF-8 on its own.
    private static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
        var line = 1
        for slice in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: slice, as: UTF8.self) == nil { return line }
            line += 1
        }
        return line
    }
}
