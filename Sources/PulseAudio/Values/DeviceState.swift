/// Whether a sink or source is playing or recording now (`pa_sink_state_t`, `pa_source_state_t`).
public enum DeviceState: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Streams are flowing.
    case running
    /// Open, but nothing is flowing.
    case idle
    /// Suspended: nothing is using it.
    case suspended
    /// The server reported a state RouteKit does not know.
    case unknown

    init(_ raw: Int32) {
        switch raw {
        case 0: self = .running
        case 1: self = .idle
        case 2: self = .suspended
        default: self = .unknown
        }
    }

    /// The raw value's name.
    public var description: String { rawValue }
}
