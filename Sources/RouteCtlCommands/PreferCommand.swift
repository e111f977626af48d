import ArgumentParser
import FoundationEssentials
import RouteKit

/// `routectl prefer DEVICE|KIND ...`: the daemon's preferences, set at run time.
struct PreferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefer",
        abstract: "Set the running daemon's preferences, best first; they outlive a restart.",
        discussion: """
            Each entry is a kind (bluetooth, wiredHeadset, speakerphone, earpiece) or a \
            device id from 'routectl list'. The first entry with a usable device wins; the \
            others are fallbacks, in order. The daemon applies them at once and keeps them in \
            $XDG_STATE_HOME/routekit/state.json (~/.local/state/routekit/state.json), so that \
            they outlive a restart; they win over the configuration file and --prefer until \
            'routectl prefer --clear'.

              routectl prefer bluetooth wiredHeadset speakerphone
              routectl prefer bluez_card.00_1B_66_AA_BB_CC speakerphone
              routectl prefer --clear

            It needs the daemon: without one it exits 68 (no daemon on the session bus) or 72 \
            (no session bus). To set the preferences a daemon starts with, write them in its \
            configuration file (Docs/Configuration.md).
            """)

    /// The entries, best first.
    @Argument(help: ArgumentHelp("Kinds or device ids, best first.", valueName: "device|kind"))
    var entries: [String] = []

    /// Forgets the run-time preferences.
    @Flag(name: .long, help: "Forget the preferences set with 'routectl prefer': the configured ones apply again.")
    var clear = false

    /// What `routectl prefer` says without a daemon.
    static let needsDaemonMessage = """
        'routectl prefer' sets the running daemon's preferences, and no daemon is running. \
        Start it ('routectl daemon', or 'systemctl --user start routekit'), or write the \
        preferences it starts with in its configuration file \
        (preferences = ["bluetooth", "speakerphone"] in ~/.config/routekit/routekit.toml).
        """

    func validate() throws {
        if clear, !entries.isEmpty { throw ValidationError("--clear forgets the preferences; it takes no entries.") }
        if !clear, entries.isEmpty {
            throw ValidationError("Name the devices or kinds, best first (routectl prefer bluetooth speakerphone), or --clear.")
        }
        _ = try PreferenceArguments.parse(entries, option: "prefer")
    }

    func run() async throws {
        try await reportingFailures {
            switch await DaemonLocator.locate(environment: ProcessInfo.processInfo.environment) {
            case .noSessionBus(let why):
                throw RouteCtlFailure.noSessionBus("""
                    'routectl prefer' reaches the daemon over the session bus, and there is none: \(why). \
                    Run it in your desktop session, or set DBUS_SESSION_BUS_ADDRESS.
                    """)
            case .notRunning:
                throw RouteCtlFailure.needsDaemon(Self.needsDaemonMessage)
            case .unanswered(let why):
                throw RouteCtlFailure.daemonUnanswered(why)
            case .daemon(let control):
                if clear {
                    try await control.clearPreferences()
                    print("prefer: the configured preferences apply again")
                } else {
                    try await control.setPreferences(entries)
                    print("prefer: " + entries.joined(separator: ", then "))
                }
            }
        }
    }
}
