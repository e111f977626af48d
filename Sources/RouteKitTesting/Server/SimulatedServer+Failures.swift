import ConcurrencySupport
import PulseAudio
import Synchronization

/// A failure waiting for its command.
struct ScheduledFailure: Sendable {
    var kind: SimulatedCommand.Kind?
    var code: PulseError.Code
    var reason: String?
    var sideEffect: (@Sendable (SimulatedServer) -> Void)?
}

extension SimulatedServer {
    /// Makes the next command of `kind` (any command when nil) fail with `code`, without
    /// doing anything: the error is a ``PulseError`` worded as `PulseClient` words it for that
    /// request (`reason` defaults to libpulse's text for `code`). Failures are used in the
    /// order they were scheduled.
    ///
    /// `sideEffect` runs just before the error is thrown, outside the server's lock: script
    /// there what happened meanwhile, for example a device that vanished mid-switch.
    ///
    /// ```swift
    /// server.failNextCommand(.setCardProfile, with: .noSuchEntity) { server in
    ///     try? server.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC")
    /// }
    /// ```
    public func failNextCommand(_ kind: SimulatedCommand.Kind? = nil, with code: PulseError.Code, reason: String? = nil,
                                sideEffect: (@Sendable (SimulatedServer) -> Void)? = nil) {
        state.withLock {
            $0.failures.append(ScheduledFailure(kind: kind, code: code, reason: reason, sideEffect: sideEffect))
        }
    }

    /// Runs `command` as the server would: checks the calling task (a cancelled one throws
    /// `CancellationError` and sends nothing, as with `PulseClient`) and the connection,
    /// records it, then either fails as scheduled or executes it as one main-loop iteration.
    func run(_ command: SimulatedCommand) throws {
        try Self.checkNotCancelled()
        let failure = try state.withLock { (server: inout State) throws(PulseError) -> ScheduledFailure? in
            try Self.checkConnected(server.connection, command.operation)
            server.receivedCommands.append(command)
            if let position = server.failures.firstIndex(where: { $0.kind == nil || $0.kind == command.kind }) {
                return server.failures.remove(at: position)
            }
            return nil
        }
        if let failure {
            failure.sideEffect?(self)
            throw PulseError(failure.code, operation: command.operation, reason: failure.reason)
        }
        let code = perform { $0.execute(command) }
        if let code {
            throw PulseError(code, operation: command.operation)
        }
    }
}
