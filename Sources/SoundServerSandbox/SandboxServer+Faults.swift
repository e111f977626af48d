import ConcurrencySupport
import Glibc
import ProcessRunner
import Synchronization

extension SandboxServer {
    /// Stops (`SIGSTOP`) the process that serves the PulseAudio protocol — pulseaudio, or
    /// pipewire-pulse — so that requests stay pending. Returns once it is stopped.
    public func freeze() throws {
        let process = try pulseProcess()
        guard process.signal(SIGSTOP) else { throw notRunning() }
        process.waitUntilStopped()
    }

    /// Continues (`SIGCONT`) the process that ``freeze()`` stopped.
    public func thaw() throws {
        guard try pulseProcess().signal(SIGCONT) else { throw notRunning() }
    }

    /// Kills (`SIGKILL`) the process that serves the PulseAudio protocol, as if the server
    /// died, and returns once it has been reaped. Its modules, and so its null sinks, are gone.
    public func crash() async throws {
        try await kill(try pulseProcess())
    }

    /// Stops (`SIGSTOP`) WirePlumber alone, so that it answers nothing (PipeWire's pings of
    /// the metadata it owns included) while PipeWire and pipewire-pulse go on; returns once it
    /// is stopped. PipeWire only.
    public func freezeSessionManager() throws {
        let process = try sessionManagerProcess()
        guard process.signal(SIGSTOP) else { throw SandboxError("wireplumber is not running") }
        process.waitUntilStopped()
    }

    /// Continues (`SIGCONT`) WirePlumber after ``freezeSessionManager()``.
    public func thawSessionManager() throws {
        guard try sessionManagerProcess().signal(SIGCONT) else { throw SandboxError("wireplumber is not running") }
    }

    /// Makes long-lived connections miss every later change of the default, as a client that
    /// gives up while connecting does on PipeWire 0.3.65 (Docs/Reliability.md, "A miss for
    /// good"): WirePlumber is frozen, a `pactl info` connects (pipewire-pulse binds the
    /// "default" metadata for it, which WirePlumber cannot answer) and is killed at
    /// `connectingFor`, and WirePlumber is thawed. On 0.3.65 the bind stays pending for good;
    /// on 1.4 it often costs the connections already there the next change, not always
    /// (Docs/Reliability.md has the figures). True when the `pactl` was still connecting when
    /// killed, as the fault needs. PipeWire only.
    public func abandonConnectionWhileSessionManagerFrozen(connectingFor: Duration = .milliseconds(500)) async throws -> Bool {
        try freezeSessionManager()
        let completion: ChildProcess.Completion
        do {
            completion = try await runPactl(["info"], timeLimit: connectingFor)
        } catch {
            try thawSessionManager()
            throw error
        }
        try thawSessionManager()
        return completion.timedOut
    }

    private func sessionManagerProcess() throws(SandboxError) -> ChildProcess {
        let process = state.withLock { state in
            state.children.last { $0.daemon == .wireplumber && $0.process.isRunning }?.process
        }
        guard let process else { throw SandboxError("wireplumber is not running (a PipeWire sandbox has it)") }
        return process
    }

    /// Kills (`SIGKILL`) WirePlumber alone, as if it crashed, and returns once it has been
    /// reaped: PipeWire and pipewire-pulse stay, with their devices and clients. PipeWire only.
    public func crashSessionManager() async throws {
        let process = state.withLock { state in
            state.children.last { $0.daemon == .wireplumber && $0.process.isRunning }?.process
        }
        guard let process else { throw SandboxError("wireplumber is not running (a PipeWire sandbox has it)") }
        try await kill(process)
    }

    /// Starts WirePlumber again after ``crashSessionManager()``; returns once it has connected
    /// (it then reads PipeWire's state and applies its policy by itself).
    public func restartSessionManager() async throws {
        try state.withLock { state throws(SandboxError) in
            guard case .running = state.lifecycle else { throw SandboxError("the sandbox is stopped") }
            if state.children.contains(where: { $0.daemon == .wireplumber && $0.process.isRunning }) {
                throw SandboxError("wireplumber is still running: crashSessionManager() it first")
            }
        }
        try await launch(.wireplumber)
        try await waitUntil("WirePlumber has connected again", deadline: .now + Self.startTimeLimit) {
            try await self.wirePlumberIsConnected()
        }
    }

    private func kill(_ process: ChildProcess) async throws {
        process.signal(SIGKILL)
        _ = await process.completion(within: nil)
        state.withLock { state in
            state.children.removeAll { $0.process === process }
        }
    }

    /// Starts the PulseAudio-protocol process again, on the same socket and directory, after
    /// ``crash()``; returns once a client can connect. For PipeWire only pipewire-pulse starts
    /// again: PipeWire, WirePlumber and the bus keep running, and so keep their state.
    public func restart() async throws {
        try state.withLock { state throws(SandboxError) in
            guard case .running = state.lifecycle else {
                throw SandboxError("the sandbox is stopped")
            }
            if state.children.contains(where: { $0.daemon == kind.pulseDaemon && $0.process.isRunning }) {
                throw SandboxError("\(kind.pulseDaemon.executableName) is still running: crash() it first")
            }
        }
        try await launch(kind.pulseDaemon)
        try await waitUntilServing(deadline: .now + Self.startTimeLimit)
    }

    /// The live process serving the PulseAudio protocol.
    private func pulseProcess() throws(SandboxError) -> ChildProcess {
        let process = state.withLock { state in
            state.children.last { $0.daemon == kind.pulseDaemon && $0.process.isRunning }?.process
        }
        guard let process else { throw notRunning() }
        return process
    }

    private func notRunning() -> SandboxError {
        SandboxError("\(kind.pulseDaemon.executableName) is not running")
    }
}
