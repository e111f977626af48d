import DBus

/// The match rules the watchers subscribe with. None names a well-known sender: messages carry
/// the sender's unique name, so the rules for a followed service name its owner's unique name
/// (the bus then sends nothing from anyone else), and the watchers check it again.
enum MatchRules {
    /// The bus's `NameOwnerChanged` for `name`: its owner appearing, going, or being replaced.
    static func ownerChanges(of name: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(name)'"
    }

    /// `PropertiesChanged` of the object at `path` sent by `owner` (every interface: the
    /// watcher picks its own).
    static func propertiesChanged(at path: String, from owner: String) -> String {
        "type='signal',sender='\(owner)',path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
    }

    /// A screensaver's `ActiveChanged` at its path, sent by `owner`.
    static func activeChanged(of service: ScreenSaverService, from owner: String) -> String {
        "type='signal',sender='\(owner)',path='\(service.path)',interface='\(service.interface)',member='ActiveChanged'"
    }

    /// What the watchers read of each signal: its shape and sender checked before anything is read.
    enum Filters {
        /// `NameOwnerChanged(sss)`.
        static let ownerChanges = SignalFilter(signature: "sss")
        /// `PropertiesChanged(sa{sv}as)` from `owner`.
        static func propertiesChanged(from owner: String) -> SignalFilter {
            SignalFilter(signature: "sa{sv}as") { $0 == owner }
        }
        /// `ActiveChanged(b)` from `owner`.
        static func activeChanged(from owner: String) -> SignalFilter {
            SignalFilter(signature: "b") { $0 == owner }
        }
    }
}
