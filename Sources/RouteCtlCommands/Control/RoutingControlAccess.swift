import FoundationEssentials
import PulseAudio
import RouteKit
import RouteKitDaemon

extension ServerOptions {
    /// Runs `body` with the running daemon's control when ``DaemonLocator`` finds one (the
    /// daemon routes its own server: `--server` is not used then), else with a
    /// ``DirectRoutingControl`` (one run of the engine) on the server (`--server`, else
    /// libpulse's default), connected for the command and shut down after. `PulseError`s become
    /// ``RouteCtlFailure/requestFailed(_:)``; a session bus that does not answer is
    /// ``RouteCtlFailure/daemonUnanswered(_:)``, rather than acting behind a daemon's back.
    func withRoutingControl<Result>(environment: [String: String] = ProcessInfo.processInfo.environment,
                                    _ body: (any RoutingControl) async throws -> Result) async throws -> Result {
        switch await DaemonLocator.locate(environment: environment) {
        case .daemon(let control):
            do {
                return try await body(control)
            } catch let error as PulseError {
                throw RouteCtlFailure.requestFailed(error)
            }
        case .unanswered(let why):
            throw RouteCtlFailure.daemonUnanswered(why)
        case .notRunning, .noSessionBus:
            break
        }
        return try await withClient { client in
            try await body(DirectRoutingControl(client: client, environment: environment))
        }
    }
}

extension DirectRoutingControl {
    /// The control a command uses on `client` when no daemon runs.
    init(client: PulseClient, environment: [String: String]) {
        let address = client.server ?? environment["PULSE_SERVER"] ?? "default"
        self.init(server: client, callRecords: CallRecordStore.standard(server: address, environment: environment),
                  displayedPreferences: PreferencePreview.read(environment: environment))
    }
}

/// The preferences a daemon would start with, for `routectl status` when none runs: those
/// set at run time (the state file), else the configuration file's. Best effort: a file that
/// cannot be read shows nothing here (the daemon reports it when it starts).
enum PreferencePreview {
    /// The entries and where they come from.
    static func read(environment: [String: String]) -> (entries: [String], origin: PreferenceOrigin) {
        if let state = StateFile.standard(environment: environment), case .read(let contents) = state.read(),
           let entries = contents.preferences {
            return (entries, .runTime)
        }
        if let location = ConfigurationLocation.resolve(option: nil, environment: environment),
           let configuration = try? location.load(), !configuration.preferences.isEmpty {
            return (configuration.preferences.map(\.description), .configurationFile)
        }
        return ([], .none)
    }
}
