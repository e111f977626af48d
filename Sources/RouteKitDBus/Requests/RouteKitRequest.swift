import DBus
import RouteKit

/// A call to ``RouteKitInterface``'s methods, decoded and checked. Pure: deciding what it does
/// (``operation(devices:state:)``) needs only the devices and the state, and nothing changes
/// until ``EngineDriver`` performs the answer.
public enum RouteKitRequest: Hashable, Sendable {
    /// `Use(s)`: a device id or a kind, chosen by hand while present.
    case use(String)
    /// `ClearSelection()`.
    case clearSelection
    /// `SetPreferences(as)`, already parsed.
    case setPreferences([AudioPreference])
    /// `ClearPreferences()`.
    case clearPreferences
    /// `StartCall()`.
    case startCall
    /// `EndCall()`.
    case endCall
    /// `OpenCall(ss)`: a call of the caller's own (an empty id asks for one), in a state.
    case openCall(id: String, state: CallState)
    /// `SetCallState(ss)`.
    case setCallState(id: String, state: CallState)
    /// `CloseCall(s)`.
    case closeCall(id: String)
    /// `EnableSpeaker(b)`.
    case enableSpeaker(Bool)
    /// `MuteMic(b)`.
    case muteMicrophone(Bool)
    /// `Refresh()`.
    case refresh
    /// `ListDevices()`: read only.
    case listDevices
    /// `Status()`: read only.
    case status
    /// `StartVolumeCapture()` (true) or `StopVolumeCapture()` (false).
    case volumeCapture(Bool)

    /// Decodes a call. sd-bus has checked the types against the interface already; a mismatch
    /// here (a call built by hand) is `InvalidArgs` naming the expected signature.
    public static func decode(member: String, arguments: [BusValue], devices: [AudioDevice]) throws(BusError) -> RouteKitRequest {
        guard let method = RouteKitInterface.interface.method(named: member) else {
            throw BusError(name: BusError.unknownMethodName, message: "\(RouteKitInterface.name) has no method \(member)")
        }
        guard arguments.map(\.signature) == method.arguments.map(\.signature) else {
            throw BusError.invalidArguments("\(member) takes '\(method.argumentSignature)', not "
                                            + "'\(BusSignature.sequence(arguments.map(\.signature)))'")
        }
        switch member {
        case "Use":
            let name = arguments[0].stringValue ?? ""
            try RouteKitLimits.checkName(name, "the device or kind")
            return .use(name)
        case "ClearSelection": return .clearSelection
        case "SetPreferences":
            let entries = arguments[0].stringArrayValue ?? []
            try RouteKitLimits.checkPreferences(entries)
            return .setPreferences(try PreferenceEntries.parse(entries, devices: devices))
        case "ClearPreferences": return .clearPreferences
        case "StartCall": return .startCall
        case "EndCall": return .endCall
        case "OpenCall":
            let id = arguments[0].stringValue ?? ""
            try checkCallID(id)
            return .openCall(id: id, state: try callState(arguments[1].stringValue ?? ""))
        case "SetCallState":
            return .setCallState(id: try callID(arguments[0].stringValue ?? ""), state: try callState(arguments[1].stringValue ?? ""))
        case "CloseCall": return .closeCall(id: try callID(arguments[0].stringValue ?? ""))
        case "EnableSpeaker": return .enableSpeaker(arguments[0].boolValue ?? false)
        case "MuteMic": return .muteMicrophone(arguments[0].boolValue ?? false)
        case "Refresh": return .refresh
        case "ListDevices": return .listDevices
        case "StartVolumeCapture": return .volumeCapture(true)
        case "StopVolumeCapture": return .volumeCapture(false)
        default: return .status
        }
    }

    /// What the request does to the engine, given the devices present, the state and the
    /// devices a kind may choose (`automatic`, the engine's); throws the D-Bus error to
    /// answer instead, when it names nothing usable.
    public func operation(devices: [AudioDevice], state: AudioRouteState,
                          automatic: AutomaticChoice = AutomaticChoice()) throws(BusError) -> EngineOperation {
        switch self {
        case .use(let target): .select(try DeviceTarget.resolve(target, among: devices, route: state.route, automatic: automatic))
        case .clearSelection: .select(nil)
        case .setPreferences(let preferences): .setPreferences(preferences)
        case .clearPreferences: .restoreConfiguredPreferences
        case .startCall: .callAudio(true)
        case .endCall: .callAudio(false)
        case .openCall(let id, let state): .openCall(id: id, state: state)
        case .setCallState(let id, let state): .setCallState(id: id, state: state)
        case .closeCall(let id): .closeCall(id: id)
        case .enableSpeaker(let enable): .speaker(enable ? .on : .off)
        case .muteMicrophone(let mute): .muteMicrophone(mute)
        case .refresh: .refresh
        case .volumeCapture(let isOn): .volumeCapture(isOn)
        case .listDevices, .status: .nothing
        }
    }
}

extension RouteKitRequest {
    /// `ringing`, `active` or `held`; anything else is `InvalidArgs` naming them.
    static func callState(_ text: String) throws(BusError) -> CallState {
        guard let state = CallState(rawValue: text) else {
            throw BusError.invalidArguments("\"\(ErrorText.quoted(text.prefix(40)))\" is not a call state: ringing, active or held")
        }
        return state
    }

    /// A call id as a client names one: not empty, at most ``RouteKitLimits/maximumCallIDLength`` characters,
    /// without control characters.
    static func callID(_ text: String) throws(BusError) -> String {
        guard !text.isEmpty else { throw BusError.invalidArguments("the call id is empty") }
        try checkCallID(text)
        return text
    }

    /// Refuses an id that is too long (`LimitExceeded`) or holds control characters (`InvalidArgs`).
    static func checkCallID(_ text: String) throws(BusError) {
        guard text.count <= RouteKitLimits.maximumCallIDLength else {
            throw RouteKitLimits.exceeded("a call id has at most \(RouteKitLimits.maximumCallIDLength) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw BusError.invalidArguments("a call id has no control characters")
        }
    }
}
