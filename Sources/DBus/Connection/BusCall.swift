/// A method call to make on the bus.
///
/// ```swift
/// let owner = try await connection.call(BusCall(
///     destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
///     interface: "org.freedesktop.DBus", member: "GetNameOwner", arguments: [.string("org.example.Echo")]))
/// ```
public struct BusCall: Hashable, Sendable, CustomStringConvertible {
    /// The bus name of the peer, such as `org.freedesktop.DBus` or `:1.42`.
    public var destination: String
    /// The object's path.
    public var path: String
    /// The interface the method belongs to.
    public var interface: String
    /// The method's name.
    public var member: String
    /// What is passed, in order.
    public var arguments: [BusValue]
    /// How long to wait for the answer before failing with `org.freedesktop.DBus.Error.NoReply`.
    public var timeout: Duration

    /// A call from its parts; the timeout is sd-bus's usual 25 seconds unless given.
    public init(destination: String, path: String, interface: String, member: String,
                arguments: [BusValue] = [], timeout: Duration = .seconds(25)) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.timeout = timeout
    }

    /// `interface.member`, for messages.
    public var description: String { "\(interface).\(member)" }

    /// The timeout in microseconds, as sd-bus takes it (at least 1: 0 means its default).
    var timeoutMicroseconds: UInt64 {
        let (seconds, attoseconds) = timeout.components
        return max(1, UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000_000)
    }
}
