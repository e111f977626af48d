import ArgumentParser
import Logging
import PulseAudio
import RouteKitDaemon

/// The options every command that talks to a server shares.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The sound server: a socket path, or a libpulse server string such as unix:/run/user/1000/pulse/native.",
        discussion: "Default: PULSE_SERVER, then client.conf, then the user's own server.",
        valueName: "server"))
    var server: String?

    /// Connects, runs `body`, and shuts down; a server that cannot be reached becomes
    /// ``RouteCtlFailure/serverUnreachable(server:reason:)``.
    func withClient<Result>(_ body: (PulseClient) async throws -> Result) async throws -> Result {
        let configuration = PulseClient.Configuration(server: server, applicationName: "routectl",
                                                      reconnectPolicy: .never)
        let client = PulseClient(configuration: configuration, logger: Logger(label: "routectl"))
        defer { client.shutdown() }
        do {
            try await client.connect()
        } catch let error as PulseError {
            throw RouteCtlFailure.serverUnreachable(server: server ?? defaultServerDescription, reason: error.reason)
        }
        do {
            return try await body(client)
        } catch let error as PulseError {
            throw RouteCtlFailure.requestFailed(error)
        }
    }

    private var defaultServerDescription: String {
        if let environment = getenvString("PULSE_SERVER") { return "\(environment) (from PULSE_SERVER)" }
        return "the default server"
    }
}
