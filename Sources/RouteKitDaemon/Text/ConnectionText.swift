import PulseAudio
import TextSupport

/// How `routectl` words the manager's connection to its server (`AudioRouteState.connection`):
/// a short form for the monitor's header and state lines, a sentence for the daemon's event
/// lines. What the server or libpulse said is escaped (``TerminalText``).
package enum ConnectionText {
    /// A few words: `connected`, `connecting`, `reconnecting (attempt 2)`, `failed (Connection
    /// refused)`, `not connected` (idle), `shut down`.
    package static func short(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "not connected"
        case .connecting: "connecting"
        case .ready: "connected"
        case .reconnecting(let attempt, _): "reconnecting (attempt \(attempt))"
        case .failed(let error): "failed (\(TerminalText.escaped(error.reason)))"
        case .shutDown: "shut down"
        }
    }

    /// The daemon's line after `server: `: what happened, and what comes next.
    package static func sentence(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "not connected"
        case .connecting: "connecting"
        case .ready: "connected"
        case .reconnecting(let attempt, let error):
            "connection lost; reconnecting (attempt \(attempt), after: \(TerminalText.escaped(error.reason)))"
        case .failed(let error): "connection failed (\(TerminalText.escaped(error.reason))); not trying again"
        case .shutDown: "connection shut down"
        }
    }
}
