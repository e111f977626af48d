/// A client connected to the server (`pa_client_info`), as a snapshot.
public struct ClientInfo: Hashable, Sendable, Identifiable {
    /// The server's index.
    public var index: UInt32
    /// The client's name.
    public var name: String
    /// The driver.
    public var driver: String
    /// The module that owns it, nil for none.
    public var ownerModule: UInt32?
    /// Its property list (`application.name`, `application.process.id`, ...).
    public var properties: [String: String]

    /// The client's ``index``.
    public var id: UInt32 { index }

    /// A client from its parts.
    public init(index: UInt32, name: String, driver: String, ownerModule: UInt32?, properties: [String: String]) {
        self.index = index
        self.name = name
        self.driver = driver
        self.ownerModule = ownerModule
        self.properties = properties
    }
}

/// A module loaded in the server (`pa_module_info`), as a snapshot.
public struct ModuleInfo: Hashable, Sendable, Identifiable {
    /// The server's index, as ``PulseClient/loadModule(_:arguments:)`` returns it.
    public var index: UInt32
    /// The module's name, for example `module-null-sink`.
    public var name: String
    /// The arguments it was loaded with.
    public var argument: String
    /// Its property list.
    public var properties: [String: String]

    /// The module's ``index``.
    public var id: UInt32 { index }

    /// A module from its parts.
    public init(index: UInt32, name: String, argument: String, properties: [String: String]) {
        self.index = index
        self.name = name
        self.argument = argument
        self.properties = properties
    }
}
