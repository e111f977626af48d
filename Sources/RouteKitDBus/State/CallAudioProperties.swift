import DBus
import RouteKit

/// callaudiod's three properties, as pure functions of the manager's state and the mute of
/// the source it records from: libcallaudio's enums (``CallAudioState``), 255 for unknown.
public enum CallAudioProperties {
    /// libcallaudio's value for a state it cannot tell.
    public static let unknown: UInt32 = CallAudioMode.unknown.rawValue

    /// The state as callaudiod would publish it, told true to the route: `AudioMode` is call
    /// mode; `SpeakerState` is on when the speaker was turned on, or carries a call;
    /// `MicState` is the microphone's mute as the server shows it. Unknown without a server.
    public static func state(_ state: AudioRouteState, microphoneMuted muted: Bool?) -> CallAudioState {
        guard state.isConnected else { return .unknown }
        let onSpeaker = state.route?.kind == .speakerphone
        let speaker: CallAudioSpeakerState = switch state.speaker {
        case .on?: onSpeaker ? .on : .off
        case .off?: .off
        case nil: state.isCallAudioActive && onSpeaker ? .on : .off
        }
        return CallAudioState(mode: state.isCallAudioActive ? .call : .default, speaker: speaker,
                              microphone: muted.map(CallAudioMicState.init(muted:)) ?? .unknown)
    }

    /// `AudioMode` and `SpeakerState`.
    public static func values(for state: AudioRouteState) -> [String: BusValue] {
        self.state(state, microphoneMuted: nil).properties.filter { $0.key != "MicState" }
    }

    /// `MicState`: 1 (on) when the microphone is live, 0 (off) when muted, 255 when there is none.
    public static func values(microphoneMuted muted: Bool?) -> [String: BusValue] {
        ["MicState": .uint32(muted.map { CallAudioMicState(muted: $0).rawValue } ?? unknown)]
    }

    /// All three.
    public static func all(_ state: AudioRouteState, microphoneMuted muted: Bool?) -> [String: BusValue] {
        self.state(state, microphoneMuted: muted).properties
    }
}
