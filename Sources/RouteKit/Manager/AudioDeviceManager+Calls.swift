import ConcurrencySupport
import Synchronization

/// Calls: sessions with ids (``CallSession``), the call list, the speaker toggle and the
/// microphone. Every command returns once the manager has settled, with what happened
/// (``CommandOutcome``), or throws ``CommandRefusal`` when it changed nothing.
extension AudioDeviceManager {
    // MARK: ACB's facade

    /// Starts call audio as one implicit call: the call list routes (a Bluetooth headset moves
    /// to its headset profile so that its microphone works, and the input follows the output).
    /// ACB's `activeCallKitAudioSession`. Starting it twice changes nothing.
    public func activateCallAudio() async {
        await send(.callAudio(true))
    }

    /// Ends the implicit call. When it was the last active or held call: the profiles switched
    /// for calls are put back, the media route comes back, in system scope the default source
    /// the call found, and the microphone is unmuted. ACB's `deactiveCallKitAudioSession`.
    public func deactivateCallAudio() async {
        await send(.callAudio(false))
    }

    // MARK: Sessions

    /// Whether call mode is on: a call is active or held.
    public var isCallAudioActive: Bool { core.withShared { $0.machine.isCallActive } }

    /// The calls held, in the order they started.
    public var calls: [CallSession] { core.withShared { $0.machine.calls } }

    /// Starts a call owned by the returned handle: ended by ``CallHandle/end()``, or when the
    /// handle is released. `processID` names the process whose streams carry the call (they are
    /// then never paused or muted by media pausing). Throws ``CommandRefusal/callExists(_:)``
    /// when `id` is taken.
    public func startCall(_ id: CallSession.ID? = nil, state: CallState = .active,
                          processID: Int32? = nil) async throws(CommandRefusal) -> CallHandle {
        let session = CallSession(id: id ?? Self.newCallID(), state: state, origin: .application, processID: processID)
        _ = try await startCall(session)
        return CallHandle(manager: self, id: session.id)
    }

    /// Starts `session` (any origin: a D-Bus client's, a detected one). The caller ends it
    /// with ``endCall(_:)`` or, for a bus client, ``endCalls(from:)``.
    @discardableResult
    public func startCall(_ session: CallSession) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.startCall(session)))
    }

    /// Rings, answers, holds or resumes the call `id`.
    @discardableResult
    public func setCallState(_ id: CallSession.ID, _ state: CallState) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.setCallState(id, state)))
    }

    /// Ends the call `id`; call mode ends with the last active or held call.
    @discardableResult
    public func endCall(_ id: CallSession.ID) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.endCall(id)))
    }

    /// Ends every call of `origin` (a D-Bus client whose bus name went).
    @discardableResult
    public func endCalls(from origin: CallOrigin) async -> CommandOutcome {
        (try? outcome(await send(.endCalls(origin)))) ?? currentOutcome()
    }

    /// Ends a call without waiting (a handle released).
    func postEndCall(_ id: CallSession.ID) {
        post(.endCall(id))
    }

    // MARK: The call route

    /// The order calls are routed by: ``PreferenceList/calls`` unless set.
    public var callPreferences: PreferenceList { core.withShared { $0.machine.callPreferences } }

    /// Replaces the call list (applied at once in call mode).
    @discardableResult
    public func setCallPreferences(_ list: PreferenceList) async -> CommandOutcome {
        (try? outcome(await send(.setCallPreferences(list)))) ?? currentOutcome()
    }

    /// The speaker toggle, nil when untouched since call mode began or ended.
    public var speaker: SpeakerSetting? { core.withShared { $0.machine.speaker } }

    /// Turns the speaker on (a speakerphone, above every preference) or off (the best device
    /// of the call list that is not a speakerphone, the earpiece when nothing else); nil lets
    /// the lists decide again. The toggle lasts until call mode begins or ends, or a device is
    /// chosen by hand. Throws ``CommandRefusal/noSpeakerphone(devices:)`` or
    /// ``CommandRefusal/nothingButSpeaker(devices:)`` when it cannot be honoured now.
    @discardableResult
    public func setSpeaker(_ setting: SpeakerSetting?) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.setSpeaker(setting)))
    }

    // MARK: The microphone

    /// The source audio is recorded from (the microphone chosen on its own, else the route's
    /// input); nil when there is none. Never a monitor.
    public var microphone: String? { core.withShared { $0.machine.microphone } }

    /// Whether the microphone is muted.
    public var isMicrophoneMuted: Bool { core.withShared { $0.machine.isMicrophoneMuted } }

    /// Records from `device`'s input whatever the route (a desk microphone while listening on
    /// the speaker); nil goes back to the route's own input. Throws
    /// ``CommandRefusal/noSuchMicrophone(_:)`` for a device that is not present with an input.
    @discardableResult
    public func selectMicrophone(_ device: AudioDevice.ID?) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.selectMicrophone(device)))
    }

    /// Mutes or unmutes the microphone. The mute is the call's, not a source's: it is applied to
    /// whatever source audio is recorded from and follows every switch and profile change until
    /// unmuted; call mode ending unmutes it, as callaudiod does. Throws
    /// ``CommandRefusal/noMicrophone`` when muting with nothing recorded from; a server that
    /// refuses is in the outcome's failures.
    @discardableResult
    public func setMicrophoneMuted(_ muted: Bool) async throws(CommandRefusal) -> CommandOutcome {
        try outcome(await send(.muteMicrophone(muted)))
    }

    // MARK: Helpers

    private func outcome(_ report: CommandTicket.Report) throws(CommandRefusal) -> CommandOutcome {
        if let refusal = report.refusal { throw refusal }
        var outcome = currentOutcome()
        outcome.failures = report.failures
        return outcome
    }

    private func currentOutcome() -> CommandOutcome {
        core.withShared {
            CommandOutcome(route: $0.machine.route, microphone: $0.machine.microphone,
                           isMicrophoneMuted: $0.machine.isMicrophoneMuted)
        }
    }

    /// Hands a command to the loop without waiting (applied at once when not running).
    private func post(_ command: RouteCommand) {
        _ = enqueue(command, CommandTicket())
    }

    private static let callCounter = Atomic<Int>(0)

    private static func newCallID() -> CallSession.ID {
        let number = callCounter.add(1, ordering: .relaxed).newValue
        return CallSession.ID(rawValue: "call-\(number)")
    }
}

/// A call started with ``AudioDeviceManager/startCall(_:state:processID:)``: hold it for as long
/// as the call lasts. Releasing it ends the call.
public final class CallHandle: Sendable {
    /// The call's id.
    public let id: CallSession.ID
    private let manager: AudioDeviceManager
    private let ended = LockedValue(false)

    init(manager: AudioDeviceManager, id: CallSession.ID) {
        self.manager = manager
        self.id = id
    }

    deinit {
        if !ended.withLock({ $0 }) { manager.postEndCall(id) }
    }

    /// The call as the manager holds it now; nil once it ended.
    public var session: CallSession? { manager.calls.first { $0.id == id } }

    /// Answers a ringing call, or resumes a held one.
    @discardableResult
    public func activate() async throws(CommandRefusal) -> CommandOutcome {
        try await manager.setCallState(id, .active)
    }

    /// Puts the call on hold: call mode stays while it is held.
    @discardableResult
    public func hold() async throws(CommandRefusal) -> CommandOutcome {
        try await manager.setCallState(id, .held)
    }

    /// Ends the call; ending it again changes nothing.
    @discardableResult
    public func end() async -> CommandOutcome? {
        guard !ended.withLock({ state in defer { state = true }; return state }) else { return nil }
        return try? await manager.endCall(id)
    }
}
