import DBus
import Logging
import PulseAudio
import RouteKit
import RouteKitDBus

/// Whether and how `routectl daemon` serves its D-Bus API (`--no-dbus`, `--callaudio`).
package struct DaemonBusSettings: Sendable, Equatable {
    /// Whether RouteKit's API, io.github.routekit.RouteKit1, is served on the session bus.
    package var serves: Bool
    /// Whether the daemon answers for callaudiod too (org.mobian_project.CallAudio).
    package var servesCallAudio: Bool

    /// Settings as the command line gives them.
    package init(serves: Bool = true, servesCallAudio: Bool = false) {
        self.serves = serves
        self.servesCallAudio = servesCallAudio
    }

    /// The API's service and the line that says where it is served, or nil when it is not
    /// served. Takes the bus names now, before the engine changes anything: a name another
    /// process owns ends the daemon (``DaemonFailure/busNameTaken(_:)``); a bus that is not
    /// there yet is waited for while routing goes on.
    /// `preferences` receives `SetPreferences` and `ClearPreferences`, so that they are kept
    /// in the state file as `routectl prefer`'s are.
    /// `context` answers the context properties and volume capture; `write` gets the lines.
    package func service(manager: AudioDeviceManager, client: PulseClient, preferences: DaemonPreferences,
                         context: any ContextControl, write: @escaping @Sendable (String) -> Void, logger: Logger)
        async throws(DaemonFailure) -> (service: RouteKitBusService, announcement: String)? {
        guard serves else { return nil }
        let driver = EngineDriver(manager: manager, microphone: SourceMuteReader(client: client),
                                  preferences: StateFilePreferenceKeeper(preferences: preferences), context: context)
        let configuration = RouteKitBusService.Configuration(servesCallAudio: servesCallAudio)
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
                throw .busNameTaken("\(error)")
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
