import Foundation
import SoundServerSandbox

/// `pw-metadata --monitor -n default 0` on a sandbox: one element per chunk of output, each
/// meaning that the metadata changed (or was first listed). Stopped by its pid.
public final class PipeWireMetadataMonitor: Sendable {
    private let process: Process
    /// Wakes once for each chunk pw-metadata writes; ends when it exits.
    public let changes: AsyncStream<Void>

    /// Starts `pw-metadata --monitor` against `server`'s PipeWire.
    public init(server: SandboxServer) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pw-metadata")
        process.arguments = ["--monitor", "-n", "default", "0"]
        process.environment = server.environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try process.run()
        try? pipe.fileHandleForWriting.close()
        // A thread of its own blocks on the pipe (no dispatch source: one still watching the
        // descriptor when the handle goes away crashes libdispatch); it ends at end of file,
        // when pw-metadata is killed.
        let output = pipe.fileHandleForReading
        let reader = Thread {
            while !output.availableData.isEmpty { continuation.yield() }
            continuation.finish()
        }
        reader.name = "pw-metadata --monitor"
        reader.start()
        self.process = process
        changes = stream
    }

    /// Kills pw-metadata and waits for it.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
