import DBus
import RouteKit

/// A call as the `Calls` property carries it: an `a{sv}` whose keys are `id`, `state`
/// (ringing, active, held), `origin` (application, implicit, `bus client :1.42`, `detected
/// baresip`) and `pid` (0 when unknown).
public enum CallRecord {
    /// The record of one call.
    public static func record(_ call: CallSession) -> BusValue {
        .variantDictionary([
            ("id", .string(call.id.rawValue)),
            ("state", .string(call.state.rawValue)),
            ("origin", .string(call.origin.description)),
            ("pid", .int32(call.processID ?? 0)),
        ])
    }

    /// `aa{sv}`, in the order the calls started.
    public static func list(_ calls: [CallSession]) -> BusValue {
        .array(element: .dictionary(key: .string, value: .variant), calls.map(record))
    }
}
