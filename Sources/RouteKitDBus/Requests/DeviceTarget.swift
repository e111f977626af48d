import FoundationEssentials
import DBus
import RouteKit
import TextSupport

/// Decides what a name means — a device id or a kind — for every caller: the D-Bus API
/// (``resolve(_:among:route:automatic:)``, answering D-Bus errors) and routectl's commands
/// (which word ``Refusal`` their own way). Pure: the devices and the route are passed in.
public enum DeviceTarget {
    /// The kinds a caller can name, as people type them.
    public static let kindNames = "bluetooth, wiredHeadset, speakerphone, earpiece"

    /// Why a name names no device to choose.
    public enum Refusal: Error, Hashable, Sendable {
        /// Nothing was named.
        case empty
        /// A kind misspelled (`speakerfone`).
        case misspelledKind(typed: String, meant: AudioDeviceKind)
        /// `external` or `virtual`: kinds chosen only by a device's id.
        case notChosenByKind(String)
        /// The device is present, and unavailable, or an input only (`hasNoOutput`).
        case notUsable(id: String, hasNoOutput: Bool)
        /// No usable device of this kind is present.
        case noDeviceOfKind(AudioDeviceKind)
        /// No device has this id.
        case noSuchDevice(String)
    }

    /// The device `text` names: the present device with this id, when it is usable; or, for
    /// a kind, the route when it is of that kind (two speakers: keep the one in use), else the
    /// device of that kind the policy ranks first (the newest, among those `automatic` lets a
    /// kind choose).
    public static func choose(_ text: String, among devices: [AudioDevice], route: AudioDevice?,
                              automatic: AutomaticChoice = AutomaticChoice()) throws(Refusal) -> AudioDevice {
        let name = text.trimmingWhitespace()
        if let device = devices.first(where: { $0.id.rawValue == name }) {
            guard RoutePolicy.isUsable(device) else { throw .notUsable(id: name, hasNoOutput: device.output == nil) }
            return device
        }
        guard !name.isEmpty else { throw .empty }
        if let kind = AudioPreference.misspelledKind(name) { throw .misspelledKind(typed: name, meant: kind) }
        switch AudioPreference(name) {
        case .kind(let kind)?:
            if let route, route.kind == kind, RoutePolicy.isUsable(route),
               let present = devices.first(where: { $0.id == route.id }) {
                return present
            }
            guard let best = RoutePolicy.candidates(among: devices, preferences: [.kind(kind)], selection: nil,
                                                    automatic: automatic).first else {
                throw .noDeviceOfKind(kind)
            }
            return best
        case .device?:
            throw .noSuchDevice(name)
        case nil:
            throw .notChosenByKind(name)
        }
    }

    /// ``choose(_:among:route:automatic:)``'s device id, or its refusal as the D-Bus error
    /// to answer: `NotUsable`, else `UnknownDevice` listing the kinds and the devices.
    public static func resolve(_ text: String, among devices: [AudioDevice], route: AudioDevice?,
                               automatic: AutomaticChoice = AutomaticChoice()) throws(BusError) -> AudioDevice.ID {
        do {
            return try choose(text, among: devices, route: route, automatic: automatic).id
        } catch {
            switch error {
            case .empty: throw unknown("name a device or a kind", devices)
            case .misspelledKind(let typed, let meant):
                throw unknown("no kind \"\(ErrorText.quoted(typed))\"; did you mean \(meant)?", devices)
            case .notChosenByKind(let typed): throw unknown("\(ErrorText.quoted(typed)) devices are chosen by their id, not by kind", devices)
            case .notUsable(let id, let hasNoOutput):
                throw BusError(name: RouteKitInterface.ErrorName.notUsable,
                               message: "\"\(ErrorText.quoted(id))\" is \(hasNoOutput ? "an input only: it has no output" : "unavailable")")
            case .noDeviceOfKind(let kind): throw unknown("no \(kind) device is present", devices)
            case .noSuchDevice(let id): throw unknown("no device \"\(ErrorText.quoted(id))\" is present", devices)
            }
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
        let listed = usable.isEmpty ? "none present" : usable.map { "\(ErrorText.quoted($0.id.rawValue)) (\($0.kind))" }.joined(separator: ", ")
        return "Kinds: \(kindNames); devices: \(listed)."
    }
}
