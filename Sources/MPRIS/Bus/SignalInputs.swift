import DBus

extension PlayerTable.Input {
    /// A `NameOwnerChanged` (`s name, s old_owner, s new_owner`) as an input; nil for another
    /// shape or a name that is not a player's.
    init?(ownerChange signal: BusSignalMessage) {
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3,
              let name = signal.arguments[0].stringValue, MPRISNames.isPlayerName(name),
              let oldOwner = signal.arguments[1].stringValue,
              let newOwner = signal.arguments[2].stringValue else { return nil }
        self = .ownerChanged(name: name, oldOwner: oldOwner, newOwner: newOwner)
    }

    /// A `PropertiesChanged` about the MPRIS interfaces as an input; nil for another
    /// interface, another shape, or a signal without a sender.
    init?(propertyChange signal: BusSignalMessage) {
        guard signal.member == "PropertiesChanged", signal.path == MPRISNames.objectPath,
              let sender = signal.sender, let update = PlayerUpdate(propertiesChanged: signal.arguments) else { return nil }
        self = .propertiesChanged(sender: sender, update: update)
    }
}
