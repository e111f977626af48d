import SoundServerSandbox

/// The baseline users script today: `pactl subscribe`, read line by line. Each line is
/// time-stamped the moment it is read.
public final class PactlSubscribe: Sendable {
    private let process: LineEmittingProcess
    /// Each line with the moment it was read.
    public let lines: AsyncStream<(ContinuousClock.Instant, String)>

    /// Starts `pactl subscribe` against `server`.
    public init(server: SandboxServer) async throws {
        let (lines, continuation) = AsyncStream.makeStream(of: (ContinuousClock.Instant, String).self)
        self.lines = lines
        process = try await LineEmittingProcess(executable: "/usr/bin/pactl", arguments: ["subscribe"],
                                                environment: server.environment,
                                                onLine: { continuation.yield(($0, $1)) },
                                                onEnd: { continuation.finish() })
    }

    /// Ends the process and waits for it.
    public func stop() async { await process.stop() }
}
