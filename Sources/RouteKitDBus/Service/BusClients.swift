import DBus

/// The session bus's clients as the daemon's API sees them: who a caller is, and when it goes,
/// so that what it took (its calls, volume capture) ends with it.
struct BusClients: Sendable {
    let connection: BusConnection
    let report: @Sendable (String) -> Void

    /// The caller's process, when the bus can tell.
    func processID(of client: String) async -> Int32? {
        (try? await connection.processID(ofOwnerOf: client)).flatMap { Int32(exactly: $0) }
    }

    /// Lets go of what `client` holds when it has no owner any more.
    func releaseIfGone(_ client: String, driver: EngineDriver) async {
        guard (try? await connection.owner(of: client)) == .some(nil) else { return }
        await release(client, driver: driver)
    }

    /// Follows clients leaving the bus until cancelled or the connection ends: each one's calls
    /// end and its volume capture is let go, with a line saying so.
    func follow(driver: EngineDriver) async {
        guard let vanished = try? await connection.vanishedNames() else { return }
        for await client in vanished {
            await release(client, driver: driver)
        }
    }

    private func release(_ client: String, driver: EngineDriver) async {
        guard let ended = await driver.clientVanished(client) else { return }
        report("dbus: client \(client) went; ended \(ended)")
    }
}
