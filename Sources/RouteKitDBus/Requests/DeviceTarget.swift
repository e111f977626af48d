import Foundation
import DBus
import RouteKit

/// Resolves what a caller names — a device id or a kind — to one present device, or to an
/// error that lists what can be named. Pure: the devices and the route are passed in.
public enum DeviceTarget {
    /// The kinds a caller can name, as people type them.
    public static let kindNames = "bluetooth, wiredHeadset, speakerphone, earpiece"

    /// The device `text` names: a present, usable device with this id; or, for a kind, the
    /// route when it is of that kind (two speakers: keep the one in use), else the device of
    /// that kind the policy ranks first. Throws `UnknownDevice` (listing kinds and devices) or
    /// `NotUsable`.
    public static func resolve(_ text: String, among devices: [AudioDevice], route: AudioDevice?) throws(BusError)
        -> AudioDevice.ID {
        let name = text.trimmingCharacters(in: .whitespaces)
        if let kind = AudioPreference.misspelledKind(name) {
            throw unknown("no kind \"\(name)\"; did you mean \(kind)?", devices)
        }
        if let device = devices.first(where: { $0.id.rawValue == name }) {
            guard RoutePolicy.isUsable(device) else {
                throw BusError(name: RouteKitInterface.ErrorName.notUsable,
                               message: "\"\(name)\" is \(device.output == nil ? "an input only: it has no output" : "unavailable")")
            }
            return device.id
        }
        guard !name.isEmpty else { throw unknown("name a device or a kind", devices) }
        switch AudioPreference(name) {
        case .kind(let kind)?:
            if let route, route.kind == kind, RoutePolicy.isUsable(route), devices.contains(where: { $0.id == route.id }) {
                return route.id
            }
            guard let best = RoutePolicy.candidates(among: devices, preferences: [.kind(kind)], selection: nil).first else {
                throw unknown("no \(kind) device is present", devices)
            }
            return best.id
        case .device?:
            throw unknown("no device \"\(name)\" is present", devices)
        case nil:
            // external and virtual: never chosen by kind.
            throw unknown("\(name) devices are chosen by their id, not by kind", devices)
        }
    }

    /// `UnknownDevice`, with what can be named instead.
    static func unknown(_ what: String, _ devices: [AudioDevice]) -> BusError {
        BusError(name: RouteKitInterface.ErrorName.unknownDevice, message: sentence(what) + " " + choices(devices))
    }

    /// `what`, ended by a full stop unless it asks a question.
    static func sentence(_ what: String) -> String {
        what.hasSuffix("?") || what.hasSuffix(".") ? what : what + "."
    }

    /// `Kinds: ...; devices: id (kind), ...`, for error messages.
    public static func choices(_ devices: [AudioDevice]) -> String {
        let usable = devices.filter(RoutePolicy.isUsable)
        let listed = usable.isEmpty ? "none present" : usable.map { "\($0.id.rawValue) (\($0.kind))" }.joined(separator: ", ")
        return "Kinds: \(kindNames); devices: \(listed)."
    }
}
