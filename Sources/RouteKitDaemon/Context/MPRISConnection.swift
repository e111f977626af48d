import DBus
import Logging
import MPRIS

/// The daemon's own connection to the session bus for MPRIS players: apart from the API's, so
/// that following players never waits behind calls to RouteKit1, nor they behind players.
package enum MPRISConnection {
    /// The session's players, followed across the bus's restarts (``MPRISFollower``); nil with
    /// `--no-dbus` or when no session bus is configured: media pausing then mutes streams
    /// without pausing players. `report` gets the daemon's lines about the bus.
    package static func follower(enabled: Bool, logger: Logger, report: @escaping @Sendable (String) -> Void) async -> MPRISFollower? {
        guard enabled, BusAddress.session.resolved != nil else { return nil }
        return await MPRISFollower.open(.session, logger: logger, report: report)
    }
}
