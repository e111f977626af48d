import PulseAudio
import RouteKit
import TextSupport

/// The one line `routectl daemon` writes on standard error for each event: short enough to
/// read as it scrolls, and regular enough for `grep`, `awk` or `cut -d' '`:
///
/// ```
/// route: bt_headset (BT Headset) <- speaker (deviceAppeared)
/// switch failed: bt_headset (BT Headset): defaultSink: set default sink: No such entity
/// devices: 2 (speaker, bt_headset)
/// input: bt_headset_mic for bt_headset (BT Headset)
/// call audio: on
/// server: connection lost; reconnecting (attempt 1, after: Connection terminated)
/// server: connected
/// yielded: speaker (Speaker) after 3 overrides by another client; not taking the default back
/// ```
///
/// A route line names the device audio goes to now, then the one it came from, then the
/// reason (``RouteChangeReason``); `none` stands for no device. What the server says (ids,
/// descriptions, reasons) is escaped (``TerminalText``): a description holding a line break
/// cannot forge a `route:` line.
package enum RouteEventLine {
    /// The line for `event`.
    package static func text(_ event: AudioRouteEvent) -> String {
        switch event {
        case .routeChanged(let from, let to, let reason):
            "route: \(named(to)) <- \(TerminalText.escaped(from?.id.rawValue ?? "none")) (\(TerminalText.escaped("\(reason)")))"
        case .switchFailed(let device, let reason):
            "switch failed: \(named(device)): \(TerminalText.escaped("\(reason)"))"
        case .devicesChanged(let devices):
            "devices: \(devices.count)"
                + (devices.isEmpty ? "" : " (\(devices.map { TerminalText.escaped($0.id.rawValue) }.joined(separator: ", ")))")
        case .state(let state):
            "state: route \(named(state.route)), \(state.devices.count) device\(state.devices.count == 1 ? "" : "s"), "
                + "call audio \(state.isCallAudioActive ? "on" : "off"), \(ConnectionText.short(state.connection))"
        case .inputChanged(let route):
            "input: \(TerminalText.escaped(route.input?.deviceName ?? "none")) for \(named(route))"
        case .callAudioChanged(let isActive):
            "call audio: \(isActive ? "on" : "off")"
        case .connectionChanged(let connection):
            "server: \(ConnectionText.sentence(connection))"
        case .yielded(let device, let overrides):
            "yielded: \(named(device)) after \(overrides) overrides by another client; not taking the default back"
        case .callsChanged(let calls):
            "calls: " + (calls.isEmpty ? "none"
                : calls.map { "\(TerminalText.escaped($0.id.rawValue)) \($0.state) (\(TerminalText.escaped($0.origin.description)))" }
                    .joined(separator: ", "))
        case .microphoneMuteChanged(let isMuted):
            "microphone: \(isMuted ? "muted" : "unmuted")"
        case .microphoneFailed(let source, let reason):
            "microphone failed: \(TerminalText.escaped(source)): \(TerminalText.escaped(reason.message))"
        }
    }

    /// `id (description)`, or `none`.
    package static func named(_ device: AudioDevice?) -> String {
        guard let device else { return "none" }
        return "\(TerminalText.escaped(device.id.rawValue)) (\(TerminalText.escaped(device.description)))"
    }
}
