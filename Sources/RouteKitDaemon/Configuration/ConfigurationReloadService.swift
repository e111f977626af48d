import MediaControl
import RouteKit
import ServiceLifecycle
import UnixSignals

/// Reloads `routectl daemon`'s configuration file on each SIGHUP (`systemctl --user reload
/// routekit`), until graceful shutdown. A file that cannot be read or is invalid is refused
/// and logged, and the running configuration stays. What changed applies at once, but what
/// needs another connection or events the connection was not subscribed to at start (the
/// scope, call detection, turning on what follows streams in a daemon that started without):
/// that is said, and applies at the next start.
package struct ConfigurationReloadService: Service {
    /// SIGHUP, trapped before the daemon said it runs (so that none is missed, nor kills it).
    package let signals: UnixSignalsSequence
    /// What the daemon started with.
    package let startup: DaemonStartup
    /// The running engine.
    package let manager: AudioDeviceManager
    /// Media pausing, which takes new ``MediaSettings`` at once.
    package let mediaGuard: MediaGuard?
    /// Where lines go.
    package let report: @Sendable (String) -> Void
    /// Ringing, which takes new ``RingingSettings`` at once.
    package var ringing: RingtoneFollower?

    /// Reloads on each of `signals`, over `startup`, applying what changed to `manager`,
    /// `mediaGuard` and `ringing`; its lines go to `report`.
    package init(signals: UnixSignalsSequence, startup: DaemonStartup, manager: AudioDeviceManager, mediaGuard: MediaGuard?,
                 report: @escaping @Sendable (String) -> Void, ringing: RingtoneFollower?) {
        self.signals = signals
        self.startup = startup
        self.manager = manager
        self.mediaGuard = mediaGuard
        self.report = report
        self.ringing = ringing
    }

    package func run() async throws {
        var running = startup.configuration
        for await _ in signals.cancelOnGracefulShutdown() {
            running = await reload(running)
        }
    }

    /// Reads the file again and applies what changed; returns the configuration in force after.
    package func reload(_ running: DaemonConfiguration) async -> DaemonConfiguration {
        let path = startup.location?.path ?? "no configuration file"
        let loaded: DaemonConfiguration
        do {
            loaded = try startup.overrides.applied(to: try DaemonStartup.load(startup.location) ?? DaemonConfiguration())
        } catch {
            report("config: reload refused, the running configuration stays: \(error)")
            return running
        }
        // What follows streams needs their events, which the connection subscribed to at start.
        let fitted = ReloadPlan.fitted(loaded, running: running, subscription: startup.configuration.subscription)
        if !fitted.waiting.isEmpty {
            report("config: \(fitted.waiting.joined(separator: ", ")) applies when the daemon restarts: it started without "
                   + "following streams; it stays as it was until then")
        }
        if !fitted.partial.isEmpty {
            report("config: \(fitted.partial.joined(separator: ", ")) applies, but moves only the ring streams already playing "
                   + "when a call rings until the daemon restarts: it started without following streams")
        }
        var applied = fitted.configuration
        for step in ReloadPlan.steps(from: running, to: fitted.configuration) {
            switch step {
            case .preferences(let preferences):
                let fromFile = startup.overrides.preferences == nil && !preferences.isEmpty
                await startup.preferences.setConfigured(preferences, origin: fromFile ? .configurationFile : .none)
                await startup.preferences.apply(to: manager)
                if startup.preferences.origin == .runTime {
                    report("config: the file's preferences apply after 'routectl prefer --clear'; those set at run time stay in force")
                }
            case .automatic(let choice):
                await manager.setAutomaticChoice(choice)
            case .media(let settings):
                mediaGuard?.update(settings)
            case .callPreferences(let list):
                await manager.setCallPreferences(list)
            case .ringing(let settings):
                ringing?.update(settings)
            case .callDetectionNeedsRestart:
                applied.calls.detects = running.calls.detects
                applied.calls.detection = running.calls.detection
                report("config: call detection (\(loaded.calls.detects ? "on" : "off")) applies when the daemon restarts; "
                       + "it is \(running.calls.detects ? "on" : "off") until then")
            case .scopeNeedsRestart(let wanted):
                applied.scope = running.scope
                report("config: scope \(wanted.summary) applies when the daemon restarts; it routes \(running.scope.summary) until then")
            }
        }
        report("config: reloaded \(path): \(applied.summary)")
        return applied
    }
}

/// What a reload changes, from the configuration in force and the one loaded. Pure.
package enum ReloadPlan {
    /// One change.
    package enum Step: Equatable, Sendable {
        /// New configured preferences.
        case preferences([AudioPreference])
        /// New rules for what kinds may choose, and the hold-off.
        case automatic(AutomaticChoice)
        /// Another scope: it needs another connection, so it waits for a restart.
        case scopeNeedsRestart(RouteScope)
        /// New media settings.
        case media(MediaSettings)
        /// A new call list.
        case callPreferences(PreferenceList)
        /// New ringing settings (`[calls]`'s ringing keys, or `[media]`'s private kinds).
        case ringing(RingingSettings)
        /// Call detection turned on or off, or other rules: it follows streams from start, so
        /// it waits for a restart.
        case callDetectionNeedsRestart
    }

    /// The steps from `running` to `loaded`; none when nothing changed.
    package static func steps(from running: DaemonConfiguration, to loaded: DaemonConfiguration) -> [Step] {
        var steps: [Step] = []
        if loaded.preferences != running.preferences { steps.append(.preferences(loaded.preferences)) }
        if loaded.automatic != running.automatic { steps.append(.automatic(loaded.automatic)) }
        if loaded.scope != running.scope { steps.append(.scopeNeedsRestart(loaded.scope)) }
        if loaded.media != running.media { steps.append(.media(loaded.media)) }
        if loaded.calls.preferences != running.calls.preferences { steps.append(.callPreferences(loaded.calls.preferences)) }
        if loaded.ringing != running.ringing { steps.append(.ringing(loaded.ringing)) }
        if loaded.calls.detects != running.calls.detects || loaded.calls.detection != running.calls.detection {
            steps.append(.callDetectionNeedsRestart)
        }
        return steps
    }
}
