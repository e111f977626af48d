import ConcurrencySupport
import FoundationEssentials
import Glibc
import ProcessRunner
import Synchronization

extension SandboxServer {
    /// How long starting (or restarting) may take before it fails.
    static let startTimeLimit = Duration.seconds(15)

    /// Starts an isolated server of `kind` in a new temporary directory.
    ///
    /// Returns once a client can connect to ``serverAddress`` and, for PipeWire, once
    /// WirePlumber runs and has connected, so that default devices and policy work. On failure
    /// everything started so far is stopped, and the error carries the servers' log tail.
    public static func start(_ kind: SoundServerKind) async throws -> SandboxServer {
        let tools = try SandboxTools.locate(for: kind, path: ProcessInfo.processInfo.environment["PATH"])
        let directory = try TemporaryDirectory.create(prefix: "routekit-sandbox-")
        let server = SandboxServer(kind: kind, directory: directory, tools: tools)
        do {
            try SandboxFiles.write(for: kind, in: directory)
            try await server.launchAll(deadline: .now + startTimeLimit)
            return server
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Starts a server of `kind`, runs `body` with it and stops it, also when `body` throws.
    ///
    /// When `body` throws, the sandbox's logs and what a new client sees are kept first
    /// (``keepDiagnostics(note:)``, with the error as the note), and the folder is named on
    /// standard error.
    public static func withServer<R>(
        _ kind: SoundServerKind,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SandboxServer) async throws -> R
    ) async throws -> R {
        let server = try await start(kind)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            if let folder = await server.keepDiagnostics(note: "\(error)") {
                let line = "SoundServerSandbox: the \(kind) sandbox's logs and diagnostics of a failure kept in \(folder)\n"
                _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
            }
            await server.stop()
            throw error
        }
    }

    /// Starts the daemons of ``kind`` in order, each once the one it needs is ready.
    private func launchAll(deadline: ContinuousClock.Instant) async throws {
        switch kind {
        case .pulseaudio:
            try await launch(.pulseaudio)
            try await waitUntilServing(deadline: deadline)
        case .pipewire:
            try await launch(.sessionBus)
            let bus = directory + "/bus"
            try await waitUntil("the D-Bus session bus accepts connections", deadline: deadline) {
                UnixSocket.acceptsConnections(at: bus)
            }
            try await launch(.pipewire)
            let graph = directory + "/pipewire-0"
            try await waitUntil("PipeWire accepts connections", deadline: deadline) {
                UnixSocket.acceptsConnections(at: graph)
            }
            try await launch(.wireplumber)
            try await launch(.pipewirePulse)
            try await waitUntilServing(deadline: deadline)
            try await waitUntil("WirePlumber has connected", deadline: deadline) {
                try await self.wirePlumberIsConnected()
            }
        }
    }

    /// Starts `daemon`, logging to its file in the sandbox, and records it.
    func launch(_ daemon: SandboxDaemon) async throws {
        let process: ChildProcess
        do {
            process = try await ChildProcess.launch(
                tools.commandLine(for: daemon, directory: directory),
                environment: processEnvironment.merging(
                    SandboxDiagnostics.debugEnvironment(for: daemon, from: ProcessInfo.processInfo.environment)
                ) { _, debug in debug },
                output: .appendingToFile(directory + "/" + daemon.logFileName)
            )
        } catch {
            throw SandboxError(error)
        }
        let recorded = state.withLock { state in
            guard case .running = state.lifecycle else { return false }
            state.children.append(Child(daemon: daemon, process: process))
            return true
        }
        if !recorded {
            process.signal(SIGKILL)
            _ = await process.completion(within: nil)
            throw SandboxError("the sandbox was stopped while \(daemon.executableName) was starting")
        }
    }
}
