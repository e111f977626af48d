import PulseAudio
import RouteKit

/// The one line `routectl daemon` writes on standard error for each event: short enough to
/// read as it scrolls, and regular enough for `grep`, `awk` or `cut -d' '`:
///
/// ```
/// route: bt_headset (BT Headset) <- speaker (deviceAppeared)
/// switch failed: bt_headset (BT Headset): defaultSink: set default sink: No such entity
/// devices: 2 (speaker, bt_headset)
/// ```
///
/// A route line names the device audio goes to now, then the one it came from, then the
/// reason (``RouteChangeReason``); `none` stands for no device.
enum RouteEventLine {
    /// The line for `event`.
    static func text(_ event: AudioRouteEvent) -> String {
        switch event {
        case .routeChanged(let from, let to, let reason):
            "route: \(named(to)) <- \(from?.id.rawValue ?? "none") (\(reason))"
        case .switchFailed(let device, let reason):
            "switch failed: \(named(device)): \(reason)"
        case .devicesChanged(let devices):
            "devices: \(devices.count)" + (devices.isEmpty ? "" : " (\(devices.map(\.id.rawValue).joined(separator: ", ")))")
        }
    }

    /// `id (description)`, or `none`.
    static func named(_ device: AudioDevice?) -> String {
        guard let device else { return "none" }
        return "\(device.id) (\(device.description))"
    }
}
