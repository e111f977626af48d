/// Where a screen lock or idle verdict comes from.
public enum ScreenLockSource: Hashable, Sendable, CustomStringConvertible {
    /// systemd-logind's session object on the system bus (`LockedHint`, `IdleHint`).
    case logind(LogindSession)
    /// A desktop's screensaver on the session bus (`GetActive`, `ActiveChanged`).
    case screenSaver(ScreenSaverService)

    /// `logind session 2 (auto)` or `org.gnome.ScreenSaver at /org/gnome/ScreenSaver`.
    public var description: String {
        switch self {
        case .logind(let session): "logind \(session)"
        case .screenSaver(let service): "\(service)"
        }
    }
}

/// The logind session being followed, and how it was found.
public struct LogindSession: Hashable, Sendable, CustomStringConvertible {
    /// The session's id (`2`, `c1`): its `Id` property.
    public var id: String
    /// The session object's real path (`/org/freedesktop/login1/session/_32`), where logind
    /// emits its `PropertiesChanged`.
    public var path: String
    /// Which lookup found it.
    public var lookup: SessionLookup

    /// A session from its parts.
    public init(id: String, path: String, lookup: SessionLookup) {
        self.id = id
        self.path = path
        self.lookup = lookup
    }

    /// `session 2 at /org/freedesktop/login1/session/_32 (found by GetSession("auto"))`.
    public var description: String { "session \(id) at \(path) (found by \(lookup))" }
}

/// How the logind session is found, tried in this order until one gives a session that answers.
public enum SessionLookup: Hashable, Sendable, CustomStringConvertible {
    /// `GetSession("auto")`: the caller's own session, or (in recent logind) the user's display
    /// session when the caller runs outside one.
    case auto
    /// `GetSessionByPID(pid)`: the session this process belongs to.
    case processID(UInt32)
    /// `GetSession(id)` with the id `XDG_SESSION_ID` names.
    case environment(String)

    /// The call it makes.
    public var description: String {
        switch self {
        case .auto: "GetSession(\"auto\")"
        case .processID(let pid): "GetSessionByPID(\(pid))"
        case .environment(let id): "GetSession(\"\(id)\") from XDG_SESSION_ID"
        }
    }
}

/// A screensaver's D-Bus service: its bus name, object and interface, all three offering
/// `GetActive() → b` and the signal `ActiveChanged(b)`.
public struct ScreenSaverService: Hashable, Sendable, CustomStringConvertible {
    /// The well-known bus name.
    public var busName: String
    /// The object's path.
    public var path: String
    /// The interface of `GetActive` and `ActiveChanged`.
    public var interface: String

    /// A service from its parts.
    public init(busName: String, path: String, interface: String) {
        self.busName = busName
        self.path = path
        self.interface = interface
    }

    /// GNOME Shell's (and gnome-screensaver's) `org.gnome.ScreenSaver`.
    public static let gnome = ScreenSaverService(busName: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver",
                                                 interface: "org.gnome.ScreenSaver")
    /// The freedesktop.org screensaver interface at its specified path (xfce4-screensaver, KDE).
    public static let freedesktop = ScreenSaverService(busName: "org.freedesktop.ScreenSaver",
                                                       path: "/org/freedesktop/ScreenSaver",
                                                       interface: "org.freedesktop.ScreenSaver")
    /// The same interface at `/ScreenSaver`, where KDE's ksmserver also serves it.
    public static let freedesktopRoot = ScreenSaverService(busName: "org.freedesktop.ScreenSaver", path: "/ScreenSaver",
                                                           interface: "org.freedesktop.ScreenSaver")
    /// The three, in the order their verdicts are preferred.
    public static let all: [ScreenSaverService] = [.gnome, .freedesktop, .freedesktopRoot]

    /// `org.gnome.ScreenSaver at /org/gnome/ScreenSaver`.
    public var description: String { "\(busName) at \(path)" }
}
