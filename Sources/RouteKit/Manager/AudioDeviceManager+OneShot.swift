import Logging

/// One command, carried out by one run of the engine (``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)``).
public enum OneShotCommand: Hashable, Sendable {
    /// ``AudioDeviceManager/select(_:)``: audio to this device now.
    case select(AudioDevice.ID)
    /// ``AudioDeviceManager/setSpeaker(_:)``: the speaker toggle.
    case setSpeaker(SpeakerSetting)
    /// ``AudioDeviceManager/activateCallAudio()`` (true) or ``AudioDeviceManager/deactivateCallAudio()`` (false).
    case callAudio(Bool)
    /// ``AudioDeviceManager/setMicrophoneMuted(_:)``.
    case muteMicrophone(Bool)
}

/// What a one-shot run did, and what the next one needs.
public struct OneShotOutcome: Hashable, Sendable {
    /// The route the server confirmed, the microphone and its mute, and what failed on the way.
    public var outcome: CommandOutcome
    /// What the next run takes up (``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)``'s
    /// `memory`); empty when nothing is to be handed on.
    public var memory: RouteMemory
    /// Whether the command changed the engine's state (false: call audio was already on or
    /// off, the microphone already muted or not, the toggle already so).
    public var changedState: Bool

    /// A result from its parts.
    public init(outcome: CommandOutcome, memory: RouteMemory, changedState: Bool) {
        self.outcome = outcome
        self.memory = memory
        self.changedState = changedState
    }
}

/// A one-shot run: the engine started, one command carried out, the engine ended without
/// putting anything back. For a command-line tool with no daemon to ask (`routectl use`,
/// `speaker`, `call`, `mic`): the same route machine decides as in a long-lived manager, once.
extension AudioDeviceManager {
    /// Runs a manager on `server` once: takes up `memory` (what the last one-shot run handed
    /// on), reads the server and makes the first decision, as ``start()`` does (with no media
    /// preferences, the route stays as the server has it, unless call mode routes it), carries
    /// out `command`, waits until the engine has settled (the server confirmed the route or the
    /// mute, or the switch failed and the next device was tried), and ends. Unlike ``stop()``
    /// it puts nothing back: the change is the point of the run. Nothing keeps following the
    /// server after it returns: a device plugged in later is not routed to.
    ///
    /// - Parameters:
    ///   - command: what to do.
    ///   - server: a connected client of the server (`subscription: .devices` at least).
    ///   - memory: what the last run on this server handed on (``OneShotOutcome/memory``).
    ///   - profileTimeout: how long a card may take to bring up a profile's devices, and the
    ///     server to confirm a new default.
    ///   - logger: where the run logs.
    /// - Returns: what happened, and what to hand to the next run.
    /// - Throws: `PulseError` when the server cannot be read; ``SelectionError`` when
    ///   `.select` names a device that is not present or not usable; ``CommandRefusal`` when
    ///   the engine refuses the command (no speakerphone, nothing but the speaker, no
    ///   microphone). A refused command changed nothing.
    public static func perform(_ command: OneShotCommand, on server: any AudioServer, remembering memory: RouteMemory = RouteMemory(),
                               profileTimeout: Duration = .seconds(3),
                               logger: Logger = Logger(label: "routekit.oneshot")) async throws -> OneShotOutcome {
        let manager = AudioDeviceManager(server: server, profileTimeout: profileTimeout, logger: logger)
        manager.core.withShared { $0.machine.recall(memory) }
        try await manager.start()
        do {
            let before = manager.core.withShared { $0.machine.memory }
            let report = try await manager.carryOut(command)
            if let refusal = report.refusal { throw refusal }
            let result = manager.core.withShared { shared in
                let after = shared.machine.memory
                let outcome = CommandOutcome(route: shared.machine.route, microphone: shared.machine.microphone,
                                             isMicrophoneMuted: shared.machine.isMicrophoneMuted, failures: report.failures)
                return OneShotOutcome(outcome: outcome, memory: after, changedState: after != before)
            }
            await manager.stop(restoring: false)
            return result
        } catch {
            await manager.stop(restoring: false)
            throw error
        }
    }

    /// Hands `command` to the running loop and waits until it settled.
    private func carryOut(_ command: OneShotCommand) async throws -> CommandTicket.Report {
        switch command {
        case .select(let device):
            try await select(device)
            return CommandTicket.Report()
        case .setSpeaker(let setting): return await send(.setSpeaker(setting))
        case .callAudio(let isOn): return await send(.callAudio(isOn))
        case .muteMicrophone(let muted): return await send(.muteMicrophone(muted))
        }
    }

    /// Ends the run; with `restoring` false, what the manager changed stays as it is (a
    /// one-shot run's change). ``stop()`` is `stop(restoring: true)`.
    func stop(restoring: Bool) async {
        if !restoring { core.withShared { $0.restoresOnStop = false } }
        await stop()
    }
}
