import ConcurrencySupport
import ProcessRunner
import Synchronization

extension SandboxServer {
    /// Waits until `pactl info` succeeds. Until something listens on the socket, a `connect`
    /// stands in for it: it costs no process, and a test run starting servers by the dozen
    /// would otherwise start a `pactl` every few milliseconds for each.
    func waitUntilServing(deadline: ContinuousClock.Instant) async throws {
        let socket = socketPath
        try await waitUntil("a client can connect to \(serverAddress)", deadline: deadline) {
            guard UnixSocket.acceptsConnections(at: socket) else { return false }
            let completion = try await self.runPactl(["info"], timeLimit: .seconds(2))
            return completion.termination == .exited(0)
        }
    }

    /// Whether WirePlumber is among pipewire-pulse's clients (pipewire-pulse lists PipeWire's
    /// clients, and WirePlumber connects before it loads its policy).
    func wirePlumberIsConnected() async throws -> Bool {
        let completion = try await runPactl(["list", "clients"], timeLimit: .seconds(2))
        return completion.termination == .exited(0)
            && completion.standardOutput.contains("application.process.binary = \"wireplumber\"")
    }

    /// Polls `isReady` (2 ms at first, backing off to 20 ms) until it returns true. Fails
    /// as soon as one of the sandbox's processes has exited, or at `deadline`, with the log tail.
    func waitUntil(
        _ condition: String,
        deadline: ContinuousClock.Instant,
        isReady: () async throws -> Bool
    ) async throws {
        var interval = Duration.milliseconds(2)
        while true {
            let exited = state.withLock { state in
                state.children.first { !$0.process.isRunning }
            }
            if let exited {
                let termination = await exited.process.completion(within: nil) ?? .unknown
                throw SandboxError(
                    "\(exited.daemon.executableName) ended (\(termination)) before \(condition)",
                    command: exited.process.commandLine,
                    exitStatus: termination.exitStatus,
                    logTail: logTail()
                )
            }
            if try await isReady() { return }
            guard ContinuousClock.now < deadline else {
                throw SandboxError(
                    "timed out after \(Self.startTimeLimit) waiting until \(condition)",
                    logTail: logTail()
                )
            }
            try await Task.sleep(for: interval)
            interval = min(interval * 2, .milliseconds(20))
        }
    }

    /// The end of every daemon log of this sandbox.
    func logTail() -> String {
        SandboxFiles.logTail(of: kind.daemons, in: directory)
    }
}
