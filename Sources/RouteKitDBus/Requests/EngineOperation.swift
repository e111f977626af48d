import RouteKit

/// What a D-Bus call does to the engine, decided before anything changes: the pure answer of
/// ``RouteKitRequest/operation(devices:state:)`` and ``CallAudioRequest/operation(devices:state:)``,
/// performed by ``EngineDriver``.
public enum EngineOperation: Hashable, Sendable {
    /// Choose this device by hand (`AudioDeviceManager.select`), or clear the choice (nil).
    case select(AudioDevice.ID?)
    /// Replace the run-time preference list (kept by the driver's ``PreferenceKeeper``).
    case setPreferences([AudioPreference])
    /// Forget the run-time preferences: the configured ones apply again.
    case restoreConfiguredPreferences
    /// Turn call audio on or off.
    case callAudio(Bool)
    /// Mute or unmute the default source.
    case muteMicrophone(Bool)
    /// Apply the route again from scratch (`refreshSpeakerphoneSetting`).
    case refresh
    /// Turn volume-button capture on or off.
    case volumeCapture(Bool)
    /// Nothing needs to change.
    case nothing
}
