/// The defaults a user configured, as opposed to the defaults in use now: PipeWire keeps them
/// apart (`default.configured.audio.sink` beside `default.audio.sink`), and a client that sets
/// the default through pipewire-pulse overwrites the configured one for good. Knowing it lets
/// ``AudioDeviceManager/stop()`` put back exactly what the user had.
public struct ConfiguredDefaults: Hashable, Sendable {
    /// The configured default sink's name; nil when none is configured.
    public var sink: String?
    /// The configured default source's name; nil when none is configured.
    public var source: String?

    /// Defaults from their parts.
    public init(sink: String?, source: String?) {
        self.sink = sink
        self.source = source
    }
}

/// Reads a server's ``ConfiguredDefaults`` and, where it can, writes them back
/// (`PipeWireConfiguredDefaults`, in the PipeWireDefaults module, does both).
public protocol ConfiguredDefaultsStore: Sendable {
    /// The configured defaults now. Throws when they cannot be read (the server is not
    /// PipeWire, or its tools are missing); the manager then restores the defaults it found.
    func configuredDefaults() async throws -> ConfiguredDefaults

    /// Configures `name` as the default sink (`output`) or source, whether that device is
    /// present or not; nil configures none. Throws when the store cannot write.
    func configure(_ name: String?, output: Bool) async throws
}

/// The former name of ``ConfiguredDefaultsStore``, which writes as well as reads.
@available(*, deprecated, renamed: "ConfiguredDefaultsStore")
public typealias ConfiguredDefaultsReader = ConfiguredDefaultsStore

extension ConfiguredDefaultsStore {
    /// Stores that cannot write throw ``ConfiguredDefaultsWriteUnsupported``.
    public func configure(_ name: String?, output: Bool) async throws { throw ConfiguredDefaultsWriteUnsupported() }
}

/// A ``ConfiguredDefaultsStore`` that cannot write the configured defaults.
public struct ConfiguredDefaultsWriteUnsupported: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error.
    public init() {}
    /// For people.
    public var description: String { "this store cannot write configured defaults" }
}
