/// Where a ``PulseClient`` stands with its server.
public enum ConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// Created, not connected yet.
    case idle
    /// Connecting for the first time.
    case connecting
    /// Connected: calls go to the server.
    case ready
    /// The connection was lost; the client is trying again (attempt counts from 1).
    /// Calls made meanwhile throw at once.
    case reconnecting(attempt: Int, lastError: PulseError)
    /// The connection was lost or never made, and the client will not try again.
    case failed(PulseError)
    /// ``PulseClient/shutdown()`` was called.
    case shutDown

    /// Whether calls can reach the server now.
    public var isReady: Bool { self == .ready }

    /// One line for people.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .ready: "ready"
        case .reconnecting(let attempt, let error): "reconnecting (attempt \(attempt), after: \(error.reason))"
        case .failed(let error): "failed (\(error.reason))"
        case .shutDown: "shut down"
        }
    }
}

/// What ``PulseClient/events()`` delivers: the server's changes, and the client's own
/// connection changes, in the order they happened.
public enum PulseEvent: Hashable, Sendable {
    /// The server announced a change (a device, stream, card, module, client or the defaults).
    case subscription(SubscriptionEvent)
    /// The connection changed state. After `.ready` following a loss, re-read what you
    /// cache: changes made while disconnected were not announced.
    case connectionStateChanged(ConnectionState)
}

/// How a ``PulseClient`` reconnects after losing its server: after `initialDelay`, then
/// doubling up to `maximumDelay` between attempts, until it connects or is shut down.
public struct ReconnectPolicy: Hashable, Sendable {
    /// Whether to reconnect at all.
    public var isEnabled: Bool
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// A policy with these delays.
    public init(isEnabled: Bool = true, initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .milliseconds(250)) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// 50 ms, doubling up to 250 ms: a local server that comes back is found within a quarter
    /// of a second, and a failed attempt costs one refused connect.
    public static let standard = ReconnectPolicy()
    /// Never reconnect: a lost connection is ``ConnectionState/failed(_:)``.
    public static let never = ReconnectPolicy(isEnabled: false)

    /// The wait before attempt `attempt` (counting from 1).
    func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
