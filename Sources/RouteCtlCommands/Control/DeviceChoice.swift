import RouteKit
import RouteKitDBus

/// What a person names on the command line — a device id from `routectl list`, or a kind —
/// resolved to one present, usable device by ``DeviceTarget`` (the one place that decides what
/// a name means, for the D-Bus API too), or a failure worded for the command line that lists
/// what can be named. Pure: the devices and the route are passed in.
enum DeviceChoice {
    /// The kinds a person can name.
    static let kindNames = DeviceTarget.kindNames

    /// The device `text` names (``DeviceTarget/choose(_:among:route:automatic:)``). Throws
    /// ``RouteCtlFailure/invalidChoice(_:)`` (64) for a misspelled kind or a kind never
    /// chosen by kind, and ``RouteCtlFailure/noSuchDevice(_:)`` (67) when nothing present and
    /// usable is what it names; both list the kinds and the devices.
    static func resolve(_ text: String, among devices: [AudioDevice], route: AudioDevice?,
                        automatic: AutomaticChoice = AutomaticChoice()) throws(RouteCtlFailure) -> AudioDevice {
        do {
            return try DeviceTarget.choose(text, among: devices, route: route, automatic: automatic)
        } catch {
            let list = "\n" + choices(devices)
            switch error {
            case .empty: throw .invalidChoice("name a device or a kind." + list)
            case .misspelledKind(let typed, let meant): throw .invalidChoice("no kind \"\(typed)\"; did you mean \(meant)?" + list)
            case .notChosenByKind(let typed): throw .invalidChoice("\(typed) devices are chosen by their id, not by kind." + list)
            case .notUsable(let id, let hasNoOutput):
                throw .noSuchDevice("\"\(id)\" \(hasNoOutput ? "is an input only: it has no output" : "is unavailable now")." + list)
            case .noDeviceOfKind(let kind): throw .noSuchDevice("no \(kind) device is present and usable." + list)
            case .noSuchDevice(let id): throw .noSuchDevice("no device \"\(id)\" is present." + list)
            }
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
