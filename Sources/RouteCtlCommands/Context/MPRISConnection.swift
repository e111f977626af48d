import DBus
import Logging
import MPRIS

/// The daemon's own connection to the session bus for MPRIS players: apart from the API's, so
/// that following players never waits behind calls to RouteKit1, nor they behind players.
struct MPRISConnection: Sendable {
    let connection: BusConnection
    let players: MPRISPlayers

    /// Connects and lists the players; nil (said in the log) with `--no-dbus` or when no
    /// session bus answers: media pausing then mutes streams without pausing players.
    static func open(enabled: Bool, logger: Logger) async -> MPRISConnection? {
        guard enabled, BusAddress.session.resolved != nil else { return nil }
        do {
            let connection = try await BusConnection.open(.session, logger: logger)
            do {
                return MPRISConnection(connection: connection, players: try await MPRISPlayers.open(on: connection, logger: logger))
            } catch {
                await connection.close()
                throw error
            }
        } catch {
            logger.info("MPRIS players are not followed: \(error)")
            return nil
        }
    }
}
