import Foundation

/// One message from baresip's `ctrl_tcp` module (baresip 1.0.0): an event it announces on
/// its own, or the response to a command the rig sent.
public enum BaresipMessage: Sendable, Equatable, CustomStringConvertible {
    /// An event: `type` is baresip's name for it (`CALL_ESTABLISHED`, `CALL_CLOSED`, …),
    /// `callID` the call it is about, if any.
    case event(type: String, callID: String?)
    /// The response to the command sent with `token`: whether it succeeded, and its text.
    case response(token: String, ok: Bool, data: String)

    /// The message in one JSON payload, or nil for one that is neither event nor response.
    public init?(json payload: [UInt8]) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload)) else { return nil }
        if wire.event == true, let type = wire.type {
            self = .event(type: type, callID: wire.id)
        } else if wire.response == true {
            self = .response(token: wire.token ?? "", ok: wire.ok ?? false, data: wire.data ?? "")
        } else {
            return nil
        }
    }

    /// Whether this is the event `type`.
    public func isEvent(_ type: String) -> Bool {
        if case .event(type, _) = self { true } else { false }
    }

    /// The event's type, or the response's token and outcome.
    public var description: String {
        switch self {
        case .event(let type, let callID): "\(type)\(callID.map { " (\($0))" } ?? "")"
        case .response(let token, let ok, let data): "response \(token): \(ok ? "ok" : "failed") \(data)"
        }
    }

    /// The JSON fields the rig reads (ctrl_tcp sends more: `accountaor`, `peeruri`, `param`…).
    private struct Wire: Decodable {
        var event: Bool?
        var type: String?
        var id: String?
        var response: Bool?
        var ok: Bool?
        var data: String?
        var token: String?
    }

    /// A command as ctrl_tcp reads it: `{"command": …, "params": …, "token": …}`.
    static func command(_ command: String, params: String, token: String) -> [UInt8] {
        let object = ["command": command, "params": params, "token": token]
        // A [String: String] always encodes.
        return Array((try? JSONEncoder().encode(object)) ?? Data())
    }
}
