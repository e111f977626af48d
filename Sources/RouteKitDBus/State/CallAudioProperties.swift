import DBus
import RouteKit

/// callaudiod's three properties, as pure functions of the manager's state and the microphone.
/// The values are libcallaudio's enums: `CallAudioMode` (0 default, 1 call),
/// `CallAudioSpeakerState` and `CallAudioMicState` (0 off, 1 on), 255 for unknown.
public enum CallAudioProperties {
    /// libcallaudio's value for a state it cannot tell.
    public static let unknown: UInt32 = 255

    /// `AudioMode` and `SpeakerState`. The speaker is on when audio goes to a speakerphone;
    /// unknown while there is no route (no server, or no device).
    public static func values(for state: AudioRouteState) -> [String: BusValue] {
        let route = state.isConnected ? state.route : nil
        return [
            "AudioMode": .uint32(state.isCallAudioActive ? 1 : 0),
            "SpeakerState": .uint32(route.map { $0.kind == .speakerphone ? 1 : 0 } ?? unknown),
        ]
    }

    /// `MicState`: 1 (on) when the default source is not muted, 0 (off) when it is.
    public static func values(microphoneMuted muted: Bool?) -> [String: BusValue] {
        ["MicState": .uint32(muted.map { $0 ? 0 : 1 } ?? unknown)]
    }

    /// All three.
    public static func all(_ state: AudioRouteState, microphoneMuted muted: Bool?) -> [String: BusValue] {
        values(for: state).merging(values(microphoneMuted: muted)) { new, _ in new }
    }
}
