/// What an exported object offers on one interface: methods, read-only properties (each
/// announced with `PropertiesChanged` when it changes) and signals. sd-bus checks every
/// incoming call's argument types against it, answers `Introspect`, `Get` and `GetAll` from
/// it, and names each argument in the introspection data.
///
/// ```swift
/// let echo = BusInterface(name: "org.example.Echo", methods: [
///     BusMethod("Echo", arguments: [BusArgument("text", .string)], results: [BusArgument("text", .string)]),
/// ])
/// ```
public struct BusInterface: Hashable, Sendable {
    /// The interface's name, such as `org.example.Echo`.
    public var name: String
    /// Its methods.
    public var methods: [BusMethod]
    /// Its properties, all read-only.
    public var properties: [BusProperty]
    /// Its signals.
    public var signals: [BusSignal]

    /// An interface from its parts.
    public init(name: String, methods: [BusMethod] = [], properties: [BusProperty] = [], signals: [BusSignal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// The method called `name`, if there is one.
    public func method(named name: String) -> BusMethod? { methods.first { $0.name == name } }
}

/// A named argument of a method or a signal.
public struct BusArgument: Hashable, Sendable {
    /// Its name, shown by introspection.
    public var name: String
    /// Its type.
    public var signature: BusSignature

    /// An argument from its name and type.
    public init(_ name: String, _ signature: BusSignature) {
        self.name = name
        self.signature = signature
    }
}

/// A method of a ``BusInterface``.
public struct BusMethod: Hashable, Sendable {
    /// Its name, such as `SelectMode`.
    public var name: String
    /// What a caller passes; a call with other types is refused by sd-bus with
    /// `org.freedesktop.DBus.Error.InvalidArgs` before the object sees it.
    public var arguments: [BusArgument]
    /// What it answers.
    public var results: [BusArgument]

    /// A method from its parts.
    public init(_ name: String, arguments: [BusArgument] = [], results: [BusArgument] = []) {
        self.name = name
        self.arguments = arguments
        self.results = results
    }

    /// The arguments' types, as one signature.
    public var argumentSignature: BusSignature { .sequence(arguments.map(\.signature)) }
    /// The results' types, as one signature.
    public var resultSignature: BusSignature { .sequence(results.map(\.signature)) }
}

/// A read-only property of a ``BusInterface``.
public struct BusProperty: Hashable, Sendable {
    /// Its name, such as `AudioMode`.
    public var name: String
    /// Its type.
    public var signature: BusSignature

    /// A property from its name and type.
    public init(_ name: String, _ signature: BusSignature) {
        self.name = name
        self.signature = signature
    }
}

/// A signal of a ``BusInterface``.
public struct BusSignal: Hashable, Sendable {
    /// Its name, such as `RouteChanged`.
    public var name: String
    /// What it carries.
    public var arguments: [BusArgument]

    /// A signal from its parts.
    public init(_ name: String, arguments: [BusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The arguments' types, as one signature.
    public var signature: BusSignature { .sequence(arguments.map(\.signature)) }
}
