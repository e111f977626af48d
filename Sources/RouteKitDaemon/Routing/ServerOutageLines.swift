import PulseAudio

/// Which of the manager's connection changes `routectl daemon` writes a line for: the loss
/// once, and the return once, not each reconnection attempt (one every 250 ms while the
/// server is gone). Pure: fed each connection state in order.
package struct ServerOutageLines: Sendable {
    /// Reconnection attempts since the server was lost; nil while it is not lost.
    private var attempts: Int?

    /// The line for `state` after `server: `, or nil when it says nothing new.
    package mutating func sentence(for state: ConnectionState) -> String? {
        switch state {
        case .reconnecting(let attempt, _):
            defer { attempts = attempt }
            return attempts == nil ? ConnectionText.sentence(state) + "; said again when it is back" : nil
        case .ready:
            defer { attempts = nil }
            guard let attempts else { return ConnectionText.sentence(state) }
            return ConnectionText.sentence(state) + " again after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        default:
            attempts = nil
            return ConnectionText.sentence(state)
        }
    }
}
