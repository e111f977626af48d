import Logging
import PipeWireDefaults
import RouteKit
import ServiceLifecycle

/// While `routectl daemon` pauses media itself, WirePlumber must not: from 0.5.11 it pauses
/// the MPRIS players whose sink goes (`linking.pause-playback`, on by default), and a player it
/// paused is one RouteKit never resumes (Docs/Policy.md, "Beside WirePlumber").
///
/// So this service turns that setting off in WirePlumber's run-time settings (the
/// `sm-settings` metadata: 0.5.11's pausing script subscribes to the setting and removes its
/// hooks when it turns false) as the daemon starts, and puts the user's value back (or removes
/// the key it added) at graceful shutdown. Where there is no such metadata (WirePlumber 0.4,
/// PulseAudio) it does nothing. The user's saved settings (`persistent-sm-settings`) are never
/// touched: a daemon killed without a stop leaves the setting off only until WirePlumber restarts.
package struct WirePlumberPauseHandOff: Service {
    /// The setting WirePlumber 0.5.11 and later pause players by.
    package static let key = "linking.pause-playback"
    /// WirePlumber's settings, on the server the daemon routes.
    package let settings: WirePlumberSettings
    /// Receives the daemon's lines.
    package let write: @Sendable (String) -> Void
    package let logger: Logger

    /// A hand-off through `settings`, its lines to `write`.
    package init(settings: WirePlumberSettings, write: @escaping @Sendable (String) -> Void, logger: Logger) {
        self.settings = settings
        self.write = write
        self.logger = logger
    }

    /// Runs until graceful shutdown whatever happens: a service of the daemon's group that
    /// returns early ends the whole daemon.
    package func run() async throws {
        let before: String?
        do {
            before = try await settings.value(of: Self.key)
            try await settings.set(Self.key, to: "false")
        } catch PipeWireConfiguredDefaults.Failure.noMetadata {
            logger.debug("no WirePlumber 0.5 settings metadata: \(Self.key) left alone")
            try? await gracefulShutdown()
            return
        } catch {
            write("media: could not turn WirePlumber's \(Self.key) off: \(error)")
            try? await gracefulShutdown()
            return
        }
        write("media: WirePlumber's \(Self.key) off while RouteKit pauses media (was \(before ?? "unset"))")
        try? await gracefulShutdown()
        do {
            try await settings.set(Self.key, to: before)
        } catch {
            write("media: could not put WirePlumber's \(Self.key) back to \(before ?? "unset"): \(error)")
        }
    }
}
