import DBus

/// Why RouteKit's D-Bus API could not be served.
public enum RouteKitBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No bus answered at the address (or the environment names none).
    case noBus(address: String, reason: String)
    /// Another process owns one of the names; `owner` says which, when the bus could tell.
    case nameTaken(name: String, owner: String?)

    /// For people, with what to do about it.
    public var description: String {
        switch self {
        case .noBus(_, let reason):
            "no session bus: \(reason)"
        case .nameTaken(let name, let owner) where name == CallAudioInterface.name:
            "\(name) is owned by \(owner ?? "another process") on the session bus, so RouteKit cannot answer for "
                + "callaudiod: stop callaudiod (systemctl --user stop callaudiod) or run without --callaudio"
        case .nameTaken(let name, let owner):
            "\(name) is owned by \(owner ?? "another process") on the session bus: another RouteKit daemon runs "
                + "in this session; stop it first, or run this one with --no-dbus"
        }
    }
}
