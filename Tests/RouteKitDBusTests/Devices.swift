import PulseAudio
import RouteKit

/// Devices as the engine describes them, for deciding without a server.
enum Devices {
    static func device(_ id: String, _ kind: AudioDeviceKind, availability: PortAvailability = .available,
                       output: Bool = true, active: Bool = false) -> AudioDevice {
        AudioDevice(id: AudioDevice.ID(rawValue: id), kind: kind, description: id.uppercased(), bus: nil, formFactor: nil,
                    availability: availability, isActive: active, card: nil,
                    output: output ? AudioDevice.Endpoint(deviceName: id, port: nil, description: id) : nil,
                    input: AudioDevice.Endpoint(deviceName: id + "_mic", port: nil, description: id + " mic"),
                    requiredProfile: nil)
    }

    static let speaker = device("speaker", .speakerphone)
    static let deskSpeaker = device("desk_speaker", .speakerphone)
    static let headset = device("bt_headset", .bluetooth)
    static let unplugged = device("jack", .wiredHeadset, availability: .unavailable)
    static let hdmi = device("hdmi", .external)
    static let all = [speaker, deskSpeaker, headset, unplugged, hdmi]

    /// A connection lost, being tried again.
    static let reconnecting = ConnectionState.reconnecting(attempt: 1, lastError: PulseError(.connectionTerminated, operation: "connect"))

    static func state(route: AudioDevice?, selection: AudioDevice.ID? = nil, call: Bool = false,
                      connection: ConnectionState = .ready, preferences: [AudioPreference] = []) -> AudioRouteState {
        AudioRouteState(devices: all, route: route, isCallAudioActive: call, connection: connection,
                        preferences: PreferenceList(preferences), selection: selection)
    }
}
