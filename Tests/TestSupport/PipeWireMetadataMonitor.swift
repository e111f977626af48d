import Glibc
import ProcessRunner
import SoundServerSandbox

/// `pw-metadata --monitor -n default 0` on a sandbox: one element per line of output, each
/// meaning that the metadata changed (or was first listed). Stopped by its pid.
public final class PipeWireMetadataMonitor: Sendable {
    private let process: ChildProcess
    /// Wakes once for each line pw-metadata writes; ends when it exits.
    public let changes: AsyncStream<Void>

    /// Starts `pw-metadata --monitor` against `server`'s PipeWire.
    public init(server: SandboxServer) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        process = try await ChildProcess.launch(
            ["/usr/bin/pw-metadata", "--monitor", "-n", "default", "0"], environment: server.environment,
            output: .lines(onLine: { _, _ in continuation.yield() }, onEnd: { continuation.finish() }),
            error: .separately(.nullDevice))
        changes = stream
    }

    /// Kills pw-metadata (`SIGKILL`); its output, and so ``changes``, end once it is reaped.
    public func stop() {
        process.signal(SIGKILL)
    }

    deinit { stop() }
}
