import FoundationEssentials
import Glibc
import RouteKit
import ServiceLifecycle
import RouteKitDaemon

/// `routectl monitor`'s one service: a read-only engine (no preferences, so it never switches
/// anything and has nothing to put back) running until graceful shutdown, each of its events
/// shown as it comes: the table redrawn, a line, or a JSON line. When its output is closed,
/// it returns, and the group shuts down as after SIGTERM.
struct MonitorService: Service {
    /// How events are shown.
    enum Presentation: Sendable {
        /// The table, redrawn in place.
        case table(TerminalStyle)
        /// One line per event, as the daemon writes them.
        case lines
        /// One JSON object per line per event.
        case json
    }

    /// The read-only engine; not started yet.
    let manager: AudioDeviceManager
    /// The server, for the table's header.
    let serverDescription: String
    /// How events are shown.
    let presentation: Presentation
    /// What the second line of the table says the monitor is.
    let mode: String

    /// Starts the engine, then shows its events, the state first (the devices and the route
    /// as the engine found them), until graceful shutdown or until nobody reads; then stops it.
    func run() async throws {
        // The engine's own run, behind ACB's start()/stop(): start() returns once the devices
        // are read and the route known, so that the first event shows them.
        try await manager.start()
        let events = manager.events()
        var model = MonitorModel()
        var startingRoute: AudioDevice.ID??
        if case .table = presentation { StandardOutput.write(TerminalStyle.home + TerminalStyle.clearScreen) }
        for await event in events.cancelOnGracefulShutdown() {
            switch event {
            case .state(let state):
                startingRoute = .some(state.route?.id)
            case .routeChanged(_, let to, .started) where startingRoute == .some(to?.id):
                continue  // the state said so already
            case .yielded:
                continue  // a read-only engine takes nothing back: nothing to yield
            default:
                break
            }
            // A failed write: nobody reads any more; stop as after Ctrl-C.
            guard show(event, &model) else { break }
        }
        await manager.stop()
    }

    /// Shows `event`; false when the output is gone.
    private func show(_ event: AudioRouteEvent, _ model: inout MonitorModel) -> Bool {
        let now = Date()
        switch presentation {
        case .json:
            guard let line = try? MonitorJSONEvent.line(event, at: now) else { return true }
            return StandardOutput.write(line + "\n")
        case .lines:
            return StandardOutput.write(RouteEventLine.text(event) + "\n")
        case .table(let style):
            model.apply(event, at: Self.clock(now))
            let lines = MonitorFrame.lines(model, server: serverDescription, mode: mode, style: style,
                                           width: TerminalStyle.columns())
            return StandardOutput.write(MonitorFrame.redraw(lines))
        }
    }

    /// `12:00:01`, local time (the C library's: Foundation's date formats would load ICU).
    static func clock(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return "--:--:--" }
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(local.tm_hour)):\(twoDigits(local.tm_min)):\(twoDigits(local.tm_sec))"
    }
}
