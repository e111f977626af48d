import DBus
import RouteKit

/// A call to callaudiod's methods (``CallAudioInterface``), decoded. Pure; what it does is
/// callaudiod 0.1.7's answer, ``CallAudioSemantics``.
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
}
