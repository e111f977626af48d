import Glibc

/// Finds the running `routectl daemon`, so that routectl's commands go through it when it
/// runs and act on the sound server directly when it does not.
///
/// The daemon serves `io.github.routekit.RouteKit1` on the session bus. Finding it takes
/// two steps: a session bus at all (`DBUS_SESSION_BUS_ADDRESS`, else
/// `$XDG_RUNTIME_DIR/bus`, as sd-bus looks), then an owner of that name on it.
enum DaemonLocator {
    /// The daemon's bus name; `Configs/routekit.service`'s `BusName=` names it too.
    static let busName = "io.github.routekit.RouteKit1"

    /// What looking for the daemon found.
    enum Finding: Sendable {
        /// The daemon runs; the commands go through this client.
        case daemon(any RoutingControl)
        /// There is a session bus, and no daemon on it.
        case notRunning
        /// There is no session bus to find a daemon on: says why, for people.
        case noSessionBus(String)
    }

    /// Looks for the daemon on the session bus the environment names.
    ///
    /// The D-Bus client plugs in here: once a session bus is found, ask it whether
    /// ``busName`` has an owner (`org.freedesktop.DBus.NameHasOwner`) and, when it has,
    /// return `.daemon` with a ``RoutingControl`` that calls the daemon's methods (`Use`,
    /// `SetPreferences`, `ClearPreferences`, `StartCall`, `EndCall`, `EnableSpeaker`,
    /// `MuteMic`, `Status`) and maps its errors onto ``RouteCtlFailure``. Until then no daemon
    /// is ever found, and every command but `prefer` acts on the sound server directly.
    static func locate(environment: [String: String]) async -> Finding {
        if let missing = SessionBusAddress.missing(environment: environment) { return .noSessionBus(missing) }
        return .notRunning
    }
}

/// Where the session bus is, as sd-bus finds it; only whether there is one, for messages.
enum SessionBusAddress {
    /// Nil when a session bus is there; else why there is none, for people.
    static func missing(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            // Only a socket path can be checked without connecting; abstract sockets and TCP are taken on trust.
            for part in address.split(separator: ";") {
                for field in part.split(separator: ",") where field.hasPrefix("unix:path=") || field.hasPrefix("path=") {
                    let path = String(field.split(separator: "=", maxSplits: 1).last ?? "")
                    if !isSocket(path) { return "DBUS_SESSION_BUS_ADDRESS names \(path), and no bus listens there" }
                }
            }
            return nil
        }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            return "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set"
        }
        return isSocket(runtime + "/bus") ? nil : "DBUS_SESSION_BUS_ADDRESS is unset and there is no \(runtime)/bus"
    }

    private static func isSocket(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }
}
