import DBus

/// The two hints of a logind session, as last read or announced, and what a
/// `PropertiesChanged` does to them. Pure: the watcher does the reading.
struct SessionHints: Hashable, Sendable {
    /// `org.freedesktop.login1.Session`.
    static let interface = "org.freedesktop.login1.Session"
    /// The properties followed.
    static let names: Set<String> = ["LockedHint", "IdleHint"]

    /// `LockedHint`; nil when unread or unreadable.
    var locked: Bool?
    /// `IdleHint`; nil when unread or unreadable.
    var idle: Bool?

    /// The hints among `properties` (a `GetAll` answer).
    init(properties: [String: BusValue]) {
        locked = properties["LockedHint"]?.boolValue
        idle = properties["IdleHint"]?.boolValue
    }

    /// Takes the new values `change` carries; returns the followed properties it invalidated
    /// (their values are now unknown), which the watcher reads again and ``set(_:to:)``.
    mutating func apply(_ change: PropertiesChange) -> [String] {
        guard change.interface == Self.interface else { return [] }
        for (name, value) in change.changed { set(name, to: value) }
        let stale = change.invalidated.filter { Self.names.contains($0) }.sorted()
        for name in stale { set(name, to: nil) }
        return stale
    }

    /// Sets one followed property (nil: unknown); others are ignored.
    mutating func set(_ name: String, to value: BusValue?) {
        switch name {
        case "LockedHint": locked = value?.boolValue
        case "IdleHint": idle = value?.boolValue
        default: break
        }
    }

    /// What the session says: nothing unless its lock hint is known.
    func answer(for session: LogindSession) -> SourceAnswer? {
        locked.map { SourceAnswer(source: .logind(session), locked: $0, idle: idle) }
    }
}
