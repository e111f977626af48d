import ArgumentParser
import DBus
import Logging
import PulseAudio
import RouteKit
import RouteKitDBus

/// `routectl daemon`'s D-Bus options, and setting the API up from them before the engine starts.
struct DaemonBusOptions: ParsableArguments {
    /// Whether to serve RouteKit's D-Bus API (`--dbus`, the default, or `--no-dbus`).
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Serve the D-Bus API, io.github.routekit.RouteKit1, on the session bus (DBUS_SESSION_BUS_ADDRESS)."))
    var dbus = true

    /// Whether to answer for callaudiod too (`--callaudio`).
    @Flag(name: .customLong("callaudio"), help: ArgumentHelp(
        "Also answer for callaudiod (org.mobian_project.CallAudio), so that GNOME Calls, Chatty and callaudiocli drive RouteKit."))
    var callAudio = false

    /// Refuses `--callaudio` without the bus.
    func validate() throws {
        if callAudio && !dbus { throw ValidationError("--callaudio needs the D-Bus API: drop --no-dbus.") }
    }

    /// The API's service and the line that says where it is served, or nil with `--no-dbus`.
    /// Takes the bus names now, before the engine changes anything: a name another process
    /// owns ends the daemon (``RouteCtlFailure/busNameTaken(_:)``); a bus that is not there
    /// yet is waited for while routing goes on.
    /// `preferences` receives `SetPreferences` and `ClearPreferences`, so that they are kept
    /// in the state file as `routectl prefer`'s are.
    /// `context` answers the context properties and volume capture; `write` gets the lines.
    func service(manager: AudioDeviceManager, client: PulseClient, preferences: DaemonPreferences,
                 context: any ContextControl, write: @escaping @Sendable (String) -> Void, logger: Logger)
        async throws -> (service: RouteKitBusService, announcement: String)? {
        guard dbus else { return nil }
        let driver = EngineDriver(manager: manager, microphone: SourceMuteReader(client: client),
                                  preferences: StateFilePreferenceKeeper(preferences: preferences), context: context)
        let configuration = RouteKitBusService.Configuration(servesCallAudio: callAudio)
        let session: BusSession?
        let announcement: String
        do {
            let claimed = try await RouteKitBusService.claim(configuration, driver: driver, report: write,
                                                             logger: logger)
            session = claimed
            announcement = claimed.servingLine
        } catch {
            switch error {
            case .nameTaken:
                throw RouteCtlFailure.busNameTaken("\(error)")
            case .noBus:
                session = nil
                announcement = configuration.address.resolved == nil
                    ? "dbus: no session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset): the D-Bus API is off"
                    : "dbus: \(error); routing goes on, and the API comes up when the bus does"
            }
        }
        let service = RouteKitBusService(driver: driver, configuration: configuration, session: session,
                                         report: write, logger: logger)
        return (service, announcement)
    }
}
