import DBus

/// The names MPRIS2 defines, and the calls and match rules this module builds from them.
enum MPRISNames {
    /// Every player's bus name starts with this: `org.mpris.MediaPlayer2.mpv`.
    static let busNamePrefix = "org.mpris.MediaPlayer2."
    /// The one object a player serves.
    static let objectPath = "/org/mpris/MediaPlayer2"
    /// The root interface: `Identity`.
    static let rootInterface = "org.mpris.MediaPlayer2"
    /// The player interface: `PlaybackStatus`, `CanPause`, `CanPlay`, `Pause`, `Play`.
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The standard properties interface.
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Whether `name` is an MPRIS player's bus name (the prefix and something after it).
    static func isPlayerName(_ name: String) -> Bool {
        name.hasPrefix(busNamePrefix) && name.count > busNamePrefix.count
    }

    /// The bus daemon's `NameOwnerChanged` for names under `org.mpris.MediaPlayer2`: players
    /// coming, going, and changing hands.
    static let ownerChangesRule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'"

    /// `PropertiesChanged` from any connection's `/org/mpris/MediaPlayer2`. Its sender is the
    /// connection's unique name, never the player's well-known one.
    static let propertyChangesRule = "type='signal',path='/org/mpris/MediaPlayer2',"
        + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"

    /// `NameOwnerChanged`'s shape: anything else is dropped unread.
    static let ownerChangesFilter = SignalFilter(signature: "sss")

    /// The properties a `PropertiesChanged` is read for; its other entries are skipped unread.
    static let followedProperties: Set<String> = ["PlaybackStatus", "CanPause", "CanPlay", "Identity"]

    /// `PropertiesChanged`'s shape (`s interface, a{sv} changed, as invalidated`), from a
    /// sender `isOwner` takes (one that owns a player's name), reading only ``followedProperties``.
    static func propertyChangesFilter(isOwner: @escaping @Sendable (String) -> Bool) -> SignalFilter {
        SignalFilter(signature: "sa{sv}as", wantedKeys: followedProperties, acceptsSender: isOwner)
    }

    /// The bus daemon's `ListNames`.
    static let listNames = BusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                   interface: "org.freedesktop.DBus", member: "ListNames", timeout: .seconds(10))

    /// `Properties.GetAll` of `interface` on the player object of connection `owner`.
    static func getAll(_ interface: String, of owner: String, timeout: Duration) -> BusCall {
        BusCall(destination: owner, path: objectPath, interface: propertiesInterface, member: "GetAll",
                arguments: [.string(interface)], timeout: timeout)
    }

    /// `Properties.Get` of one property on the player object of connection `owner`.
    static func get(_ interface: String, _ property: String, of owner: String, timeout: Duration) -> BusCall {
        BusCall(destination: owner, path: objectPath, interface: propertiesInterface, member: "Get",
                arguments: [.string(interface), .string(property)], timeout: timeout)
    }

    /// A method of the player interface, with no arguments, on the player `name`.
    static func command(_ member: String, on name: String, timeout: Duration) -> BusCall {
        BusCall(destination: name, path: objectPath, interface: playerInterface, member: member, timeout: timeout)
    }

    /// D-Bus errors that mean the peer is not on the bus (any more).
    static let goneErrorNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", BusError.nameHasNoOwnerName, BusError.disconnectedName,
    ]
}
