import Foundation
import RouteKit

/// Resolves what a person names on the command line — a device id from `routectl list`, or a
/// kind — to one present, usable device, or to a failure that lists what can be named. Pure:
/// the devices and the route are passed in.
enum DeviceChoice {
    /// The kinds a person can name.
    static let kindNames = "bluetooth, wiredHeadset, speakerphone, earpiece"

    /// The device `text` names: the usable device with this id; or, for a kind, the route when
    /// it is of that kind (two speakers: keep the one in use), else the device of that kind
    /// the policy ranks first (the newest, among those `automatic` lets a kind choose).
    /// Throws ``RouteCtlFailure/invalidChoice(_:)`` (64) for a misspelled kind or a kind never
    /// chosen by kind, and ``RouteCtlFailure/noSuchDevice(_:)`` (67) when nothing present and
    /// usable is what it names; both list the kinds and the devices.
    static func resolve(_ text: String, among devices: [AudioDevice], route: AudioDevice?,
                        automatic: AutomaticChoice = AutomaticChoice()) throws(RouteCtlFailure) -> AudioDevice {
        let name = text.trimmingCharacters(in: .whitespaces)
        if let device = devices.first(where: { $0.id.rawValue == name }) {
            guard RoutePolicy.isUsable(device) else {
                let why = device.output == nil ? "is an input only: it has no output" : "is unavailable now"
                throw .noSuchDevice("\"\(name)\" \(why).\n" + choices(devices))
            }
            return device
        }
        let preference: AudioPreference
        do {
            preference = try PreferenceText.read(name)
        } catch {
            switch error {
            case .empty: throw .invalidChoice("name a device or a kind.\n" + choices(devices))
            case .misspelledKind(let typed, let meant):
                throw .invalidChoice("no kind \"\(typed)\"; did you mean \(meant)?\n" + choices(devices))
            case .notChosenByKind(let typed, _):
                throw .invalidChoice("\(typed) devices are chosen by their id, not by kind.\n" + choices(devices))
            }
        }
        switch preference {
        case .kind(let kind):
            if let route, route.kind == kind, RoutePolicy.isUsable(route),
               let present = devices.first(where: { $0.id == route.id }) {
                return present
            }
            guard let best = RoutePolicy.candidates(among: devices, preferences: [.kind(kind)], selection: nil,
                                                    automatic: automatic).first else {
                throw .noSuchDevice("no \(kind) device is present and usable.\n" + choices(devices))
            }
            return best
        case .device:
            throw .noSuchDevice("no device \"\(name)\" is present.\n" + choices(devices))
        }
    }

    /// What can be named: the kinds, then each usable device with its kind and description.
    static func choices(_ devices: [AudioDevice]) -> String {
        let usable = devices.filter(RoutePolicy.isUsable)
        guard !usable.isEmpty else { return "Kinds: \(kindNames). No usable device is present now ('routectl list')." }
        var table = TextTable(header: ["DEVICE", "KIND", "DESCRIPTION"])
        table.rows = usable.map { [$0.id.rawValue, $0.kind.rawValue, $0.description] }
        return "Kinds: \(kindNames). Devices:\n" + table.render().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    }
}
