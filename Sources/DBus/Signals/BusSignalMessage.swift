/// A signal received on the bus.
public struct BusSignalMessage: Hashable, Sendable, CustomStringConvertible {
    /// The unique name of the connection that sent it.
    public var sender: String?
    /// The path of the object it came from.
    public var path: String
    /// Its interface.
    public var interface: String
    /// Its name.
    public var member: String
    /// What it carries.
    public var arguments: [BusValue]

    /// A signal from its parts.
    public init(sender: String?, path: String, interface: String, member: String, arguments: [BusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// `interface.member(arguments)` from `path`.
    public var description: String {
        "\(interface).\(member)(\(arguments.map(\.description).joined(separator: ", "))) from \(path)"
    }
}
