import Foundation
import SoundServerSandbox

/// The baseline users script today: `pactl subscribe`, read line by line. Each line is
/// time-stamped the moment it is read, on a thread of its own.
public final class PactlSubscribe: Sendable {
    private let process: Process
    /// Each line with the moment it was read.
    public let lines: AsyncStream<(ContinuousClock.Instant, String)>

    /// Starts `pactl subscribe` against `server`.
    public init(server: SandboxServer) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
        process.arguments = ["subscribe"]
        process.environment = server.environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream.makeStream(of: (ContinuousClock.Instant, String).self)
        self.lines = lines
        self.process = process
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let reader = Thread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield((now, String(decoding: pending[..<newline], as: UTF8.self)))
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        try process.run()
        reader.start()
    }

    /// Kills the process.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
