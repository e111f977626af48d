import DBus
import Glibc

/// Finds the running `routectl daemon`, so that routectl's commands go through it when it
/// runs and act on the sound server directly when it does not.
///
/// The daemon serves `io.github.routekit.RouteKit1` on the session bus. Finding it takes
/// two steps: a session bus at all (`DBUS_SESSION_BUS_ADDRESS`, else
/// `$XDG_RUNTIME_DIR/bus`, as sd-bus looks), then an owner of that name on it
/// (`org.freedesktop.DBus.NameHasOwner`). Each question to the bus is bounded by
/// ``DaemonBus/readTimeout``, so that a command never hangs on a bus that does not answer.
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
        /// The session bus is there and did not answer in time: says so, for people.
        case unanswered(String)
    }

    /// Looks for the daemon on the session bus the environment names.
    static func locate(environment: [String: String]) async -> Finding {
        if let missing = SessionBusAddress.missing(environment: environment) { return .noSessionBus(missing) }
        guard let address = SessionBusAddress.address(environment: environment) else {
            return .noSessionBus("neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        }
        let connection: BusConnection
        do {
            connection = try await BusConnection.open(.address(address))
        } catch {
            return .noSessionBus("no bus answers at \(address) (\(error.message))")
        }
        do {
            let owned = try await BusDeadline.within(DaemonBus.readTimeout) {
                try await connection.call(question("NameHasOwner"))
            }.first?.boolValue ?? false
            guard owned else {
                await connection.close()
                return .notRunning
            }
            let processID = try? await BusDeadline.within(DaemonBus.readTimeout) {
                try await connection.call(question("GetConnectionUnixProcessID"))
            }.first?.uint32Value
            return .daemon(DaemonRoutingControl(bus: DaemonBus(connection: connection), processID: processID))
        } catch {
            // Not closed and awaited: closing flushes to a bus that may not be reading. Letting
            // go of it asks its thread to close, without waiting.
            let reason = (error as? BusError)?.message ?? "\(error)"
            return .unanswered("""
                the session bus at \(address) did not tell within \(DaemonErrorMapping.seconds(DaemonBus.readTimeout)) \
                whether the daemon runs (\(reason)). Is the bus hung? 'busctl --user status' asks it too.
                """)
        }
    }

    /// A question about ``busName`` to the bus itself, bounded by ``DaemonBus/readTimeout``.
    private static func question(_ member: String) -> BusCall {
        BusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: member, arguments: [.string(busName)], timeout: DaemonBus.readTimeout)
    }
}

/// Where the session bus is, as sd-bus finds it; only whether there is one, for messages.
enum SessionBusAddress {
    /// The D-Bus address of the session bus: `DBUS_SESSION_BUS_ADDRESS`, else the socket in
    /// `XDG_RUNTIME_DIR`; nil when neither is set.
    static func address(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

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
