import DBus
import RouteKitDBus

/// The running daemon's D-Bus API as routectl calls it: one connection to the session bus,
/// every call bounded in time, every error a ``RouteCtlFailure`` (``DaemonErrorMapping``).
struct DaemonBus: Sendable {
    /// The connection to the session bus.
    let connection: BusConnection

    /// How long a read (`Status`, `ListDevices`) and looking for the daemon may take.
    static let readTimeout = Duration.seconds(2)
    /// How long a change may take: the daemon answers once the engine has settled, which
    /// includes the server confirming a switch (a Bluetooth profile change takes seconds).
    static let changeTimeout = Duration.seconds(15)

    /// Calls `member` on the daemon's object with `arguments`. `target` is what a person named,
    /// for telling a misspelled kind (64) from an absent device (67).
    func call(_ member: String, _ arguments: [BusValue] = [], timeout: Duration = changeTimeout,
              target: String? = nil) async throws -> [BusValue] {
        do {
            let call = BusCall(destination: RouteKitInterface.name, path: RouteKitInterface.path,
                               interface: RouteKitInterface.name, member: member, arguments: arguments, timeout: timeout)
            let connection = connection
            // A little past sd-bus's own timeout, which then answers first with its own message.
            return try await BusDeadline.within(timeout + .seconds(1)) { try await connection.call(call) }
        } catch let error as BusError {
            throw DaemonErrorMapping.failure(error, calling: member, timeout: timeout, target: target)
        }
    }

    /// `Status()`'s record.
    func status() async throws -> [String: BusValue] {
        let reply = try await call("Status", timeout: Self.readTimeout)
        guard let record = reply.first?.variantDictionaryValue else {
            throw RouteCtlFailure.daemonFailed("the daemon's Status answered \(reply), not an a{sv}: is it another version?")
        }
        return record
    }

    /// `ListDevices()`'s records.
    func devices() async throws -> [[String: BusValue]] {
        let reply = try await call("ListDevices", timeout: Self.readTimeout)
        guard let records = reply.first?.arrayValue?.compactMap(\.variantDictionaryValue) else {
            throw RouteCtlFailure.daemonFailed("the daemon's ListDevices answered \(reply), not an aa{sv}: is it another version?")
        }
        return records
    }
}
