/// The match rules the watchers subscribe with. None names a well-known sender: messages carry
/// the sender's unique name, so the watchers check it against the owner they follow instead.
enum MatchRules {
    /// The bus's `NameOwnerChanged` for `name`: its owner appearing, going, or being replaced.
    static func ownerChanges(of name: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(name)'"
    }

    /// `PropertiesChanged` of the object at `path` (every interface: the watcher picks its own).
    static func propertiesChanged(at path: String) -> String {
        "type='signal',path='\(path)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
    }

    /// A screensaver's `ActiveChanged` at its path.
    static func activeChanged(of service: ScreenSaverService) -> String {
        "type='signal',path='\(service.path)',interface='\(service.interface)',member='ActiveChanged'"
    }
}
