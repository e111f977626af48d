import DBus
import RouteKit

/// A call to callaudiod's methods (``CallAudioInterface``), decoded, and mapped onto the
/// engine. Pure. callaudiod's meanings: `SelectMode(0)` is the default mode and `SelectMode(1)`
/// voice-call mode (call audio off and on), any other mode is `InvalidArgs`; `EnableSpeaker`
/// turns the speakerphone on or off; `MuteMic(true)` mutes the microphone (the default source).
public enum CallAudioRequest: Hashable, Sendable {
    /// `SelectMode(u)`.
    case selectMode(UInt32)
    /// `EnableSpeaker(b)`.
    case enableSpeaker(Bool)
    /// `MuteMic(b)`.
    case muteMicrophone(Bool)

    /// Decodes a call; arguments of other types are `InvalidArgs` naming the expected signature.
    public static func decode(member: String, arguments: [BusValue]) throws(BusError) -> CallAudioRequest {
        guard let method = CallAudioInterface.interface.method(named: member) else {
            throw BusError(name: BusError.unknownMethodName, message: "\(CallAudioInterface.name) has no method \(member)")
        }
        guard arguments.map(\.signature) == method.arguments.map(\.signature) else {
            throw BusError.invalidArguments("\(member) takes '\(method.argumentSignature)', not "
                                            + "'\(BusSignature.sequence(arguments.map(\.signature)))'")
        }
        switch member {
        case "SelectMode": return .selectMode(arguments[0].uint32Value ?? 0)
        case "EnableSpeaker": return .enableSpeaker(arguments[0].boolValue ?? false)
        default: return .muteMicrophone(arguments[0].boolValue ?? false)
        }
    }

    /// What it does to the engine. Errors are callaudiod's: `InvalidArgs` for a mode other
    /// than 0 and 1, `Failed` when no speakerphone is present.
    public func operation(devices: [AudioDevice], state: AudioRouteState,
                          automatic: AutomaticChoice = AutomaticChoice()) throws(BusError) -> EngineOperation {
        switch self {
        case .selectMode(0): return .callAudio(false)
        case .selectMode(1): return .callAudio(true)
        case .selectMode(let mode):
            throw BusError.invalidArguments("Invalid mode \(mode): 0 (default) or 1 (voice call)")
        case .enableSpeaker(let enable):
            return .speaker(enable ? .on : .off)
        case .muteMicrophone(let mute):
            return .muteMicrophone(mute)
        }
    }
}
