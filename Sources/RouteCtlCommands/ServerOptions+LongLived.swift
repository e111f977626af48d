import Logging
import PulseAudio
import RouteKitDaemon

extension ServerOptions {
    /// Connects a client that outlives server restarts (it reconnects by itself, as a daemon
    /// must); a server that cannot be reached now becomes
    /// ``RouteCtlFailure/serverUnreachable(server:reason:)``, exactly as for the one-shot commands.
    /// `subscription` narrows what the server announces to what the client follows.
    func connectLongLived(applicationName: String, subscription: SubscriptionMask = .all,
                          logger: Logger) async throws -> PulseClient {
        let configuration = PulseClient.Configuration(server: server, applicationName: applicationName,
                                                      reconnectPolicy: .standard, subscription: subscription)
        let client = PulseClient(configuration: configuration, logger: logger)
        do {
            try await client.connect()
        } catch let error as PulseError {
            client.shutdown()
            let described = server ?? getenvString("PULSE_SERVER").map { "\($0) (from PULSE_SERVER)" } ?? "the default server"
            throw RouteCtlFailure.serverUnreachable(server: described, reason: error.reason)
        }
        return client
    }
}
