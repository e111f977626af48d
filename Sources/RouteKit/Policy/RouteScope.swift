import PulseAudio

/// What an ``AudioDeviceManager`` routes.
public enum RouteScope: Hashable, Sendable {
    /// The whole machine: the default sink and source, and every stream moved to them, as
    /// `module-switch-on-connect` does. What the daemon uses.
    case system
    /// Only the streams `selector` matches (an application's own, or those of one role),
    /// moved as they appear; the defaults and everyone else's streams are left alone.
    case application(StreamSelector)
}

/// Which streams an application-scoped manager moves: those whose properties carry every
/// listed value. Properties are the stream's own, which libpulse fills from its client
/// (`application.process.id`, `application.name`, `media.role`, ...).
///
/// ```swift
/// let calls = StreamSelector.role("phone")        // media.role=phone, any application
/// let mine = StreamSelector.process(getpid())     // this process's streams
/// ```
public struct StreamSelector: Hashable, Sendable, CustomStringConvertible {
    /// Property values a stream must all have.
    public var properties: [String: String]

    /// A selector from property values; an empty one matches every stream.
    public init(properties: [String: String]) {
        self.properties = properties
    }

    /// The streams of one process (`application.process.id`).
    public static func process(_ processID: Int32) -> StreamSelector {
        StreamSelector(properties: ["application.process.id": String(processID)])
    }

    /// The streams of one role (`media.role`: `phone`, `music`, `video`, `event`, ...).
    public static func role(_ role: String) -> StreamSelector {
        StreamSelector(properties: ["media.role": role])
    }

    /// Whether a stream with `streamProperties` is selected.
    func matches(_ streamProperties: [String: String]) -> Bool {
        properties.allSatisfy { streamProperties[$0.key] == $0.value }
    }

    /// `key=value` pairs, sorted.
    public var description: String {
        properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
