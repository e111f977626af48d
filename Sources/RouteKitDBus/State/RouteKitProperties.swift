import DBus
import PulseAudio
import RouteKit

/// The properties of ``RouteKitInterface``, as pure functions of the manager's state and the
/// microphone's mute: what `Get`, `GetAll` and `PropertiesChanged` carry.
public enum RouteKitProperties {
    /// Every property, with its type. Strings are empty where there is nothing to name.
    public static let all: [BusProperty] = [
        BusProperty("Route", .string),             // the device id audio goes to
        BusProperty("RouteDescription", .string),  // what a person reads for it
        BusProperty("RouteKind", .string),         // bluetooth, wiredHeadset, speakerphone, earpiece, external, virtual
        BusProperty("OutputSink", .string),        // the sink that carries it
        BusProperty("InputSource", .string),       // the source it records from
        BusProperty("Preferences", .array(.string)),
        BusProperty("Selection", .string),         // the device chosen with Use, while present
        BusProperty("CallAudio", .boolean),        // call mode: a call is active or held
        BusProperty("Calls", .array(.dictionary(key: .string, value: .variant))),  // id, state, origin, pid
        BusProperty("Speaker", .boolean),          // the route is a speakerphone
        BusProperty("SpeakerSetting", .string),    // the speaker toggle: on, off, or empty
        BusProperty("Microphone", .string),        // the source recorded from (never a monitor)
        BusProperty("MicMuted", .boolean),         // the microphone is muted, as the server shows it
        BusProperty("Connected", .boolean),        // the daemon is connected to the sound server
        BusProperty("Connection", .string),        // idle, connecting, ready, reconnecting, failed, shutdown
        BusProperty("Yielding", .boolean),         // it stopped taking the default back from another client
    ]

    /// The properties that follow the manager's state.
    public static func values(for state: AudioRouteState) -> [String: BusValue] {
        let route = state.isConnected ? state.route : nil
        return [
            "Route": .string(route?.id.rawValue ?? ""),
            "RouteDescription": .string(route?.description ?? ""),
            "RouteKind": .string(route?.kind.rawValue ?? ""),
            "OutputSink": .string(route?.output?.deviceName ?? ""),
            "InputSource": .string(route?.input?.deviceName ?? ""),
            "Preferences": .strings(state.preferences.ordered.map(\.description)),
            "Selection": .string(state.selection?.rawValue ?? ""),
            "CallAudio": .boolean(state.isCallAudioActive),
            "Calls": CallRecord.list(state.calls),
            "Speaker": .boolean(route?.kind == .speakerphone),
            "SpeakerSetting": .string(state.speaker?.rawValue ?? ""),
            "Microphone": .string(state.isConnected ? state.microphone ?? "" : ""),
            "Connected": .boolean(state.isConnected),
            "Connection": .string(state.connection.name),
            "Yielding": .boolean(state.isYielding),
        ]
    }

    /// The property that follows the microphone: false when its state is unknown.
    public static func values(microphoneMuted muted: Bool?) -> [String: BusValue] {
        ["MicMuted": .boolean(muted ?? false)]
    }

    /// Every property at once: `Status`'s answer, and an exported object's first values.
    public static func status(_ state: AudioRouteState, microphoneMuted muted: Bool?) -> [String: BusValue] {
        values(for: state).merging(values(microphoneMuted: muted)) { new, _ in new }
    }

    /// `Status`'s `a{sv}`: every property, in their order (RouteKit's, then the context's when
    /// given), then `PreferencesOrigin` (where the preferences come from: `runTime`,
    /// `commandLine`, `configurationFile`, `none`) when given.
    public static func statusRecord(_ state: AudioRouteState, microphoneMuted muted: Bool?,
                                    preferencesOrigin: String? = nil, context: ContextSnapshot? = nil) -> BusValue {
        let values = status(state, microphoneMuted: muted)
        var properties = all.compactMap { property in values[property.name].map { (property.name, $0) } }
        if let context {
            let contextValues = ContextProperties.values(for: context)
            properties += ContextProperties.all.compactMap { property in contextValues[property.name].map { (property.name, $0) } }
        }
        return .variantDictionary(properties + (preferencesOrigin.map { [("PreferencesOrigin", BusValue.string($0))] } ?? []))
    }
}
