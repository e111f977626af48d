/// The states' names for machines: what `routectl monitor --json` writes as `connection`, and
/// what RouteKit's D-Bus `Connection` property holds.
extension ConnectionState {
    /// A stable lowercase name of the case, without its details: `idle`, `connecting`,
    /// `ready`, `reconnecting`, `failed` or `shutdown`. These names do not change between
    /// releases; parse them, not ``description``.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .ready: "ready"
        case .reconnecting: "reconnecting"
        case .failed: "failed"
        case .shutDown: "shutdown"
        }
    }

    /// Which attempt a reconnection is at (counting from 1); nil in every other state.
    public var reconnectAttempt: Int? {
        if case .reconnecting(let attempt, _) = self { return attempt }
        return nil
    }

    /// Why the connection is not there: the last attempt's error while reconnecting, the
    /// error the client gave up on when failed; nil in every other state.
    public var error: PulseError? {
        switch self {
        case .reconnecting(_, let error), .failed(let error): error
        default: nil
        }
    }
}
