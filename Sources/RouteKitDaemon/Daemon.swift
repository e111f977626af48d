import Logging
import MPRIS
import MediaControl
import PipeWireDefaults
import PulseAudio
import RouteKit
import ScreenLock
import ServiceLifecycle
// UnixSignals comes with ServiceLifecycle.
import UnixSignals

/// `routectl daemon` put together on a connected server: the engine with the preferences in
/// force, its context (media, silent mode, volume capture, the screen, ringing), the D-Bus
/// API, the routing service, configuration reloading, WirePlumber's pause hand-off and the
/// startup check of PipeWire's default, run as one service group until SIGTERM or SIGINT.
/// The command parses and connects; everything it runs is composed here.
package struct Daemon {
    /// The server's connection, made with ``DaemonConfiguration/subscription``.
    package var client: PulseClient
    /// The server as named on the command line (`--server`), nil for the default: where
    /// PipeWire's own defaults are read (``ConfiguredDefaultsSource``).
    package var serverName: String?
    /// What the server said of itself at connection.
    package var serverInfo: ServerInfo
    /// The server for the first line, such as `PulseAudio 16.1 at unix:/run/user/1000/pulse/native`.
    package var serverDescription: String
    /// The configuration, the preferences and the lines to announce.
    package var startup: DaemonStartup
    /// The D-Bus API's settings.
    package var bus: DaemonBusSettings
    /// Where every line goes, escaped already.
    package var write: @Sendable (String) -> Void
    /// RouteKit's own log.
    package var logger: Logger

    /// A daemon of these parts.
    package init(client: PulseClient, serverName: String?, serverInfo: ServerInfo, serverDescription: String,
                 startup: DaemonStartup, bus: DaemonBusSettings, write: @escaping @Sendable (String) -> Void, logger: Logger) {
        self.client = client
        self.serverName = serverName
        self.serverInfo = serverInfo
        self.serverDescription = serverDescription
        self.startup = startup
        self.bus = bus
        self.write = write
        self.logger = logger
    }

    /// How long a stop may take before the service group cancels what still runs (a frozen
    /// server).
    package static let maximumStopDuration: Duration = .seconds(15)

    /// Runs until SIGTERM or SIGINT (or `reloads`' end), then stops every part, putting back
    /// what the daemon changed. `reloads` are the SIGHUPs that reload the configuration file.
    /// Throws ``DaemonFailure`` when a bus name is taken or the server fails at start.
    package func run(reloads: UnixSignalsSequence) async throws {
        let scope = startup.configuration.scope
        let calls = startup.configuration.calls
        let manager = AudioDeviceManager(
            server: client, scope: scope, preferences: await startup.preferences.effective,
            configuredDefaults: ConfiguredDefaultsSource.reader(server: serverName),
            mirrorsStreams: startup.configuration.followsStreams, logger: logger)
        await manager.setAutomaticChoice(startup.configuration.automatic)
        await manager.setCallPreferences(calls.preferences)
        let mpris = await MPRISConnection.follower(enabled: bus.serves, logger: logger, report: write)
        let context = DaemonContext(client: client, manager: manager, mpris: mpris,
                                    settings: startup.configuration.media, calls: calls, screenLock: ScreenLockConfiguration(),
                                    write: write, logger: logger)
        let api = try await bus.service(manager: manager, client: client, preferences: startup.preferences,
                                        context: context, write: write, logger: logger)
        var routing = RoutingService(manager: manager, serverDescription: serverDescription, write: write)
        routing.announcements = startup.announcements + (api.map { [$0.announcement] } ?? [])
        let reload = ConfigurationReloadService(signals: reloads, startup: startup, manager: manager,
                                                mediaGuard: context.mediaGuard, report: write, ringing: context.ringing)
        let isPipeWire = serverInfo.implementation == .pipewire
        // RouteKit pauses media here: WirePlumber 0.5.11 and later must not as well.
        let handOff = startup.configuration.media.pausesOnUnplug && mpris != nil && isPipeWire
            ? ConfiguredDefaultsSource.reader(server: serverName).map {
                WirePlumberPauseHandOff(settings: WirePlumberSettings(tool: $0), write: write, logger: logger)
            } : nil
        // Shut down in reverse order: the hand-off and reloading first, then the context (it
        // unmutes what it holds and puts the volume back) and routing (it restores) together,
        // each within its own time limit, so that a frozen server costs the longest of them,
        // not the sum; then the API, which reports the route routing left behind.
        let services: [any Service] = (api.map { [$0.service] } ?? []) + [ConcurrentServices(services: [routing, context]), reload]
            + (handOff.map { [$0] } ?? [])
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                                              logger: logger)
        // A stop that hangs (a frozen server) is cancelled rather than waited for forever.
        group.maximumGracefulShutdownDuration = Self.maximumStopDuration
        try await ServiceGroup(configuration: group).run()
    }
}
