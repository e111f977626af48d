import RouteKitDBus
import DBus
import PulseAudio
import RouteKit
import RouteKitDaemon

/// The daemon's `ListDevices` and `Status` records read back into routectl's values. Pure.
enum DaemonRecords {
    /// A device from its `ListDevices` record; nil without an id. The record carries no card,
    /// ports or profiles: those are left out.
    static func device(_ record: [String: BusValue]) -> AudioDevice? {
        func text(_ key: String) -> String? {
            guard let value = record[key]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        guard let id = text("id") else { return nil }
        let description = text("description") ?? id
        return AudioDevice(
            id: AudioDevice.ID(rawValue: id), kind: text("kind").flatMap(AudioDeviceKind.init(rawValue:)) ?? .external,
            description: description, bus: text("bus"), formFactor: text("form_factor"),
            availability: text("availability").flatMap(PortAvailability.init(rawValue:)) ?? .unknown,
            isActive: record["active"]?.boolValue ?? false, card: nil,
            output: text("output_sink").map { AudioDevice.Endpoint(deviceName: $0, port: nil, description: description) },
            input: text("input_source").map { AudioDevice.Endpoint(deviceName: $0, port: nil, description: description) },
            requiredProfile: nil)
    }

    /// `routectl status`'s view of the daemon: its `Status` record, with the devices it
    /// names from `ListDevices`.
    static func status(_ record: [String: BusValue], devices: [AudioDevice], processID: UInt32?) -> RoutingStatus {
        func text(_ key: String) -> String? {
            guard let value = record[key]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        let entries = record["Preferences"]?.stringArrayValue ?? []
        let preferences = entries.compactMap { try? PreferenceText.read($0) }
        let route = text("Route").flatMap { id in devices.first { $0.id.rawValue == id } }
        let selection = text("Selection")
        let input = text("InputSource")
        let origin = text("PreferencesOrigin").flatMap(PreferenceOrigin.init(rawValue:))
            ?? (entries.isEmpty ? .none : .configurationFile)
        return RoutingStatus(
            answerer: .daemon, output: route, inputSource: input,
            inputDevice: input.flatMap { source in devices.first { $0.input?.deviceName == source } },
            why: RouteExplanation.why(route: route, preferences: preferences, selection: selection.map(AudioDevice.ID.init(rawValue:)),
                                      answerer: .daemon, isYielding: record["Yielding"]?.boolValue ?? false),
            preferences: entries, preferencesOrigin: origin, selection: selection,
            isCallAudioOn: record["CallAudio"]?.boolValue ?? false, isMicrophoneMuted: record["MicMuted"]?.boolValue,
            daemonProcessID: processID,
            // A word this routectl does not know (a newer daemon's) reads as unknown.
            context: ContextSnapshot(silentMode: text("SilentMode").flatMap(ContextSnapshot.Silence.init(rawValue:)) ?? .unknown,
                                     screenLock: text("ScreenLock").flatMap(ContextSnapshot.Lock.init(rawValue:)) ?? .unknown,
                                     idle: text("Idle").flatMap(ContextSnapshot.Activity.init(rawValue:)) ?? .unknown,
                                     pausedPlayers: record["PausedPlayers"]?.stringArrayValue ?? [],
                                     volumeCapture: record["VolumeCapture"]?.boolValue ?? false))
    }
}
