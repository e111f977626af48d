import ArgumentParser
import DBus
import FoundationEssentials
import Glibc
import PulseAudio
import RouteKitDaemon
import TextSupport
import UnixSignals

/// `routectl daemon`: keeps audio on the preferred devices, as they come and go, until
/// SIGTERM or SIGINT; then puts back what it changed.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Keep audio on the devices you prefer, as they come and go, until stopped.",
        discussion: """
            Runs in the foreground and routes the whole machine: it makes the preferred \
            device the default sink (and its microphone the default source) and moves \
            playing streams to it, whenever a device appears, goes away or fails. Ctrl-C or \
            SIGTERM stops it: it puts back the defaults, streams, ports and profiles it \
            changed (what someone else changed since is left alone) and exits 0.

            Each --prefer is a kind (bluetooth, wiredHeadset, speakerphone, earpiece) or one \
            device's id from 'routectl list'. The first entry with a working device wins; the \
            others are fallbacks, in order. A switch that fails falls through to the next. \
            HDMI, S/PDIF and virtual devices are used only when named by id. Without \
            --prefer, the server's own choice stands and routes are only reported.

            Prefer a Bluetooth headset, else the speaker:

              routectl daemon --prefer bluetooth --prefer speakerphone

            It writes one line per event on standard error, for people and scripts:

              route: bt_headset (BT Headset) <- speaker (deviceAppeared)
              switch failed: bt_headset (BT Headset): defaultSink: ...
              devices: 2 (speaker, bt_headset)

            A route line names the device audio goes to, the one it left, and why. \
            --log-level info adds RouteKit's own log. Configs/routekit.service runs it as a \
            systemd user service.

            It serves its D-Bus API, io.github.routekit.RouteKit1, on the session bus, so \
            that a softphone in any language drives it: Use a device or kind, StartCall, \
            EnableSpeaker, MuteMic and more, properties for the route and signals for its \
            changes (Docs/DBus.md). 'busctl --user introspect' shows it all; for example:

              busctl --user get-property io.github.routekit.RouteKit1 \\
                /io/github/routekit/RouteKit1 io.github.routekit.RouteKit1 Route

            With --callaudio it also answers for callaudiod (org.mobian_project.CallAudio), \
            so that GNOME Calls, Chatty and callaudiocli drive it unmodified. When the session \
            bus goes away, routing goes on, and the API comes back with the bus. --no-dbus \
            leaves the bus alone.

            It reads its configuration file (--config, else ~/.config/routekit/routekit.toml \
            when it exists: preferences, scope, the devices never chosen by kind, a hold-off \
            for flapping devices; Docs/Configuration.md). The command line wins over the \
            file. SIGHUP reloads the file ('systemctl --user reload routekit'); an invalid \
            file is refused with its line and key, and the running configuration stays. \
            Preferences set with 'routectl prefer' win over both and are kept in \
            ~/.local/state/routekit/state.json across restarts.

            Route only a softphone's streams, and leave the desktop's defaults alone:

              routectl daemon --scope application --match media.role=phone \\
                  --prefer bluetooth

            Exit status: 0 after a clean stop, 64 for a usage error (such as --prefer \
            virtual), 66 when the --config file cannot be read, 69 when no sound server can \
            be reached, 70 when the server fails a request while starting, 75 when another \
            process owns one of its bus names (another routectl daemon, or callaudiod with \
            --callaudio), 78 when the configuration file is invalid.
            """)

    /// The server to route (`--server`).
    @OptionGroup var server: ServerOptions

    /// The preference list as typed, best first; read by ``PreferenceArguments``.
    @Option(name: .long, help: ArgumentHelp(
        "A kind (bluetooth, wiredHeadset, speakerphone, earpiece) or a device id. Repeat it: the first is preferred, the rest are fallbacks.",
        valueName: "kind|id"))
    var prefer: [String] = []

    /// The D-Bus API (`--no-dbus`, `--callaudio`).
    @OptionGroup(title: "D-Bus") var bus: DaemonBusOptions

    /// How much of RouteKit's own log goes to standard error.
    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "How much of RouteKit's own log to write on standard error, beside the event lines.",
        valueName: "level"))
    var logLevel: LogLevelOption = .notice

    /// The configuration file and the scope (`--config`, `--scope`, `--match`).
    @OptionGroup(title: "Configuration") var settings: DaemonConfigurationOptions

    /// Refuses a bad `--prefer` before anything connects (exit 64).
    func validate() throws {
        _ = try PreferenceArguments.parse(prefer)
    }

    /// Reads the configuration, connects, then runs the ``Daemon`` composed on that
    /// connection (routing, its context and the D-Bus API) until SIGTERM or SIGINT.
    func run() async throws {
        // Standard error may be a pipe whose reader goes away (`routectl daemon 2>&1 | head -1`):
        // SIGPIPE would kill the daemon before it puts anything back. Failed writes are dropped
        // and counted instead.
        signal(SIGPIPE, SIG_IGN)
        // A client's 64 MiB message, refused, must not leave the daemon larger for good.
        LargeMessageMemory.returnLargeBlocksWhenFreed()
        let overrides = DaemonOverrides(preferences: prefer.isEmpty ? nil : try PreferenceArguments.parse(prefer),
                                        scope: settings.scope, match: try settings.properties())
        // Every line and log entry goes through one writer of its own: nothing waits for
        // standard error (a pipe nobody reads), whatever lock it holds.
        let output = LineWriter.standardError
        // Whatever a line quotes (a bus owner's command name, a player's Identity, an error)
        // reaches the terminal without control characters.
        let write: @Sendable (String) -> Void = { output.write(TerminalText.controlsEscaped($0)) }
        let logger = logLevel.logger(label: "routectl.daemon", writingTo: output)
        // The last lines (a failure, `daemon: stopped`) get a moment to be written, no more.
        defer { output.flush(timeout: .milliseconds(500)) }
        try await reportingFailures(write: write) {
            let startup = try DaemonStartup.prepare(overrides: overrides, configFile: settings.config,
                                                    environment: ProcessInfo.processInfo.environment,
                                                    report: write)
            // Trapped now, before the first line says the daemon runs: SIGHUP must never kill it.
            let reloads = await UnixSignalsSequence(trapping: .sighup)
            // System scope follows devices and defaults only (no stream, module or client
            // events); application scope its streams too, and so does media pausing, which
            // must know which streams play where.
            let client = try await server.connectLongLived(applicationName: "routectl daemon",
                                                           subscription: startup.configuration.subscription, logger: logger)
            defer { client.shutdown() }
            let serverInfo: ServerInfo
            do {
                serverInfo = try await client.serverInfo()
            } catch let error as PulseError {
                throw RouteCtlFailure.requestFailed(error)
            }
            let daemon = Daemon(client: client, serverName: server.server, serverInfo: serverInfo,
                                serverDescription: Self.describe(serverInfo, at: client.server), startup: startup,
                                bus: DaemonBusSettings(serves: bus.dbus, servesCallAudio: bus.callAudio),
                                write: write, logger: logger)
            try await daemon.run(reloads: reloads)
        }
    }

    /// `PulseAudio 16.1 at unix:/run/user/1000/pulse/native`, for the first line.
    static func describe(_ info: ServerInfo, at address: String?) -> String {
        let implementation = switch info.implementation {
        case .pipewire: "PipeWire \(info.pipeWireVersion ?? "") (pipewire-pulse)"
        case .pulseaudio: "PulseAudio \(info.serverVersion)"
        case .other: "\(info.serverName) \(info.serverVersion)"
        }
        return "\(implementation) at \(address ?? getenvString("PULSE_SERVER") ?? "the default server")"
    }
}
