import PulseAudio
import RouteKit
import RouteKitDaemon
import TextSupport

/// One screen of `routectl monitor`'s table, from the model: a header, the route, the
/// devices with the route marked, the last events. Pure; every cell is escaped
/// (``TerminalText``) before colour is added.
enum MonitorFrame {
    /// The lines, each at most `width` characters before colour.
    static func lines(_ model: MonitorModel, server: String, mode: String, style: TerminalStyle, width: Int) -> [String] {
        func fit(_ text: String) -> String { text.count > width ? String(text.prefix(max(0, width - 1))) + "…" : text }
        var lines: [String] = []
        lines.append(style.paint(fit("routectl monitor: \(TerminalText.escaped(server))"), .bold))
        lines.append(style.paint(fit(mode + "  (Ctrl-C stops)"), .dim))
        lines.append("")
        let connection = style.paint(ConnectionText.short(model.connection), Self.colour(of: model.connection))
        lines.append(fit("Output      \(RouteEventLine.named(model.route))"))
        let input = model.route.map { $0.input?.deviceName ?? "the server's default source (the device has no microphone)" }
        lines.append(fit("Input       \(TerminalText.escaped(input ?? "none"))"))
        lines.append("Call audio  \(model.isCallAudioOn ? style.paint("on", .yellow) : "off")    Server  \(connection)")
        if !model.calls.isEmpty {
            let calls = model.calls.map { "\(TerminalText.escaped($0.id.rawValue)) \($0.state) (\(TerminalText.escaped($0.origin.description)))" }
            lines.append(fit("Calls       " + calls.joined(separator: ", ")))
        }
        if model.isMicrophoneMuted { lines.append("Microphone  " + style.paint("muted", .yellow)) }
        lines.append("")
        if model.devices.isEmpty {
            lines.append("No usable devices.")
        } else {
            var table = TextTable(header: ["", "KIND", "DEVICE", "ID", "AVAILABLE"])
            for device in model.devices {
                table.rows.append([device.id == model.route?.id ? "*" : "", device.kind.rawValue, device.description,
                                   device.id.rawValue, device.availability.rawValue])
            }
            let rendered = table.render().split(separator: "\n", omittingEmptySubsequences: false).map { fit(String($0)) }
            lines.append(style.paint(rendered[0], .bold))
            for (row, device) in zip(rendered.dropFirst(), model.devices) {
                lines.append(device.id == model.route?.id ? style.paint(row, .green, .bold)
                             : device.availability == .unavailable ? style.paint(row, .dim) : row)
            }
        }
        lines.append("")
        lines.append(style.paint("Events", .bold))
        lines += model.recent.isEmpty ? ["  none yet"] : model.recent.map { style.paint(fit("  " + $0), .cyan) }
        return lines
    }

    /// Green when connected, yellow on the way there, red when it is not coming.
    static func colour(of connection: ConnectionState) -> TerminalStyle.Tint {
        switch connection {
        case .ready: .green
        case .connecting, .reconnecting: .yellow
        case .idle, .failed, .shutDown: .red
        }
    }

    /// The text that replaces the previous frame on a terminal: home, each line cleared to its
    /// end, then everything below cleared.
    static func redraw(_ lines: [String]) -> String {
        TerminalStyle.home + lines.map { $0 + TerminalStyle.clearLine }.joined(separator: "\n") + "\n" + TerminalStyle.clearBelow
    }
}
