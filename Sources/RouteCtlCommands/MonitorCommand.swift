import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import PulseAudio
import RouteKit
import ServiceLifecycle
import UnixSignals

/// `routectl monitor`: devices and routes, live.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Watch devices and routes change, live: a table for people, JSON lines for scripts.",
        discussion: """
            On a terminal, a table that redraws in place: where audio goes and comes from, \
            call audio, the devices (the route marked '*'), and the last events. Colours only \
            on a terminal, and never with NO_COLOR set. Piped, one line per event, as the \
            daemon writes them. With --json, one JSON object per line per event, for scripts:

              routectl monitor
              routectl monitor --json | jq -c 'select(.event == "routeChanged") | .to.id'

            The first event is the state (devices, route, call audio); then devicesChanged, \
            routeChanged (with its reason), inputChanged, switchFailed, callAudioChanged and \
            connectionChanged, as they happen (Docs/CommandLine.md has their keys).

            Whether a daemon runs or not, it runs RouteKit's engine read-only in its own \
            process, with no preferences, following the server's events: it switches nothing, \
            and shows what the server and whoever routes do, a running daemon's switches \
            among them (with their reasons as seen from outside: changedElsewhere, \
            deviceAppeared, deviceFailed). It follows the server through restarts; Ctrl-C or \
            SIGTERM stops it, and so does closing its output (monitor --json | head -3).
            """)

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print one JSON object per line per event, for scripts.")
    var json = false

    func run() async throws {
        // A reader that goes away ends the monitor through a failed write, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var quiet = Logger(label: "routectl.monitor")
        quiet.logLevel = .critical
        try await reportingFailures {
            let client = try await server.connectLongLived(applicationName: "routectl monitor", subscription: [.devices, .clients],
                                                           logger: quiet)
            defer { client.shutdown() }
            let serverDescription: String
            do {
                serverDescription = DaemonCommand.describe(try await client.serverInfo(), at: client.server)
            } catch let error as PulseError {
                throw RouteCtlFailure.requestFailed(error)
            }
            // No preferences and no configured defaults to restore: it never changes anything.
            let manager = AudioDeviceManager(server: client, scope: .system, preferences: [], logger: quiet)
            let style = TerminalStyle.standardOutput(environment: ProcessInfo.processInfo.environment)
            let presentation: MonitorService.Presentation = json ? .json : style.redrawsInPlace ? .table(style) : .lines
            let service = MonitorService(manager: manager, serverDescription: serverDescription, presentation: presentation,
                                         mode: "read-only: showing what the server and whoever routes do")
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
            do {
                try await group.run()
            } catch let error as PulseError {
                throw RouteCtlFailure.requestFailed(error)
            }
            if case .table = presentation { StandardOutput.write("\n") }
        }
    }
}
