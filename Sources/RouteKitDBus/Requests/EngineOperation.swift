import RouteKit

/// What a D-Bus call does to the engine, decided before anything changes: the pure answer of
/// ``RouteKitRequest/operation(devices:state:automatic:)`` and
/// ``CallAudioRequest/operation(devices:state:automatic:)``, performed by ``EngineDriver`` on
/// behalf of the calling client.
public enum EngineOperation: Hashable, Sendable {
    /// Choose this device by hand (`AudioDeviceManager.select`), or clear the choice (nil).
    case select(AudioDevice.ID?)
    /// Replace the run-time preference list (kept by the driver's ``PreferenceKeeper``).
    case setPreferences([AudioPreference])
    /// Forget the run-time preferences: the configured ones apply again.
    case restoreConfiguredPreferences
    /// The session's one implicit call on or off (RouteKit1's `StartCall` and `EndCall`,
    /// callaudiod's `SelectMode`): ACB's activate and deactivate, kept when the caller exits
    /// (a `routectl call start` or `callaudiocli -m 1` is done before the call is).
    case callAudio(Bool)
    /// Open a call owned by the caller: it ends with `CloseCall`, or when the caller's bus
    /// name goes (a softphone that crashed). An empty id asks for one.
    case openCall(id: String, state: CallState)
    /// Ring, answer, hold or resume one of the caller's calls.
    case setCallState(id: String, state: CallState)
    /// End one of the caller's calls.
    case closeCall(id: String)
    /// Turn the call-time speaker toggle on or off.
    case speaker(SpeakerSetting)
    /// Mute or unmute the microphone (the call's mute, wherever audio is recorded from).
    case muteMicrophone(Bool)
    /// Apply the route again from scratch (`refreshSpeakerphoneSetting`).
    case refresh
    /// Turn volume-button capture on or off.
    case volumeCapture(Bool)
    /// Nothing needs to change.
    case nothing
}

extension EngineOperation {
    /// Whether the caller takes something the daemon gives back when it goes: a call of its
    /// own, or volume capture.
    var holdsSomething: Bool {
        switch self {
        case .openCall, .volumeCapture(true): true
        default: false
        }
    }
}
