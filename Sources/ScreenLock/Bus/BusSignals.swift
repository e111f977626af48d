import DBus

/// `NameOwnerChanged(name, old, new)`, read from its signal.
struct NameOwnerChange: Hashable, Sendable {
    /// The well-known name.
    var name: String
    /// The unique name that owns it now; nil when nobody does.
    var newOwner: String?

    /// Nil when `signal` is not a well-formed `NameOwnerChanged`.
    init?(_ signal: BusSignalMessage) {
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              let name = signal.arguments[0].stringValue, let new = signal.arguments[2].stringValue else { return nil }
        self.name = name
        self.newOwner = new.isEmpty ? nil : new
    }
}

/// `PropertiesChanged(interface, changed, invalidated)`, read from its signal.
struct PropertiesChange: Hashable, Sendable {
    /// The interface whose properties changed.
    var interface: String
    /// The properties that changed, with their new values.
    var changed: [String: BusValue]
    /// The properties that changed without their new values: they must be read again.
    var invalidated: [String]

    /// Nil when `signal` is not a well-formed `PropertiesChanged`.
    init?(_ signal: BusSignalMessage) {
        guard signal.member == "PropertiesChanged", signal.arguments.count == 3,
              let interface = signal.arguments[0].stringValue,
              let changed = signal.arguments[1].variantDictionaryValue,
              let invalidated = signal.arguments[2].stringArrayValue else { return nil }
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }
}
