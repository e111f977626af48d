import ConcurrencySupport
import RouteKit

/// The daemon's preference list and where it comes from: set at run time (`routectl
/// prefer`, kept in the state file across restarts), else configured (the daemon's
/// `--prefer`, else the configuration file). It owns the state file's writes; applying the
/// list to the engine is ``apply(to:)``.
package actor DaemonPreferences {
    /// The configured preferences (command line or file).
    private(set) var configured: [AudioPreference]
    /// Where ``configured`` comes from.
    private(set) var configuredOrigin: PreferenceOrigin
    /// The preferences set at run time; nil when none are.
    private(set) var runTime: [AudioPreference]?
    /// ``origin`` as of the last change, for readers that may not wait (the D-Bus API's
    /// `Status`, answered on the bus's thread).
    private nonisolated let publishedOrigin: LockedValue<PreferenceOrigin>
    /// Where run-time preferences are kept; nil when the environment names no state directory.
    package let stateFile: StateFile?
    /// Where the daemon's lines go.
    package let report: @Sendable (String) -> Void

    /// The holder, with the run-time preferences a previous run left (`restored`).
    package init(configured: [AudioPreference], origin: PreferenceOrigin, restored: [AudioPreference]?, stateFile: StateFile?,
         report: @escaping @Sendable (String) -> Void) {
        self.configured = configured
        self.configuredOrigin = origin
        self.runTime = restored
        self.stateFile = stateFile
        self.report = report
        self.publishedOrigin = LockedValue(Self.origin(runTime: restored, configured: configured, configuredOrigin: origin))
    }

    /// The list in force: the run-time one, else the configured one.
    package var effective: [AudioPreference] { runTime ?? configured }

    /// Where ``effective`` comes from; read without waiting.
    package nonisolated var origin: PreferenceOrigin { publishedOrigin.withLock { $0 } }

    private static func origin(runTime: [AudioPreference]?, configured: [AudioPreference],
                               configuredOrigin: PreferenceOrigin) -> PreferenceOrigin {
        if runTime != nil { return .runTime }
        return configured.isEmpty ? .none : configuredOrigin
    }

    /// Stores ``origin`` after a change (in the change's isolation, so in the changes' order).
    private func publishOrigin() {
        let now = Self.origin(runTime: runTime, configured: configured, configuredOrigin: configuredOrigin)
        publishedOrigin.withLock { $0 = now }
    }

    /// Sets (or, with nil, forgets) the run-time preferences and keeps them in the state file.
    /// A file that cannot be written is reported: the preferences apply all the same, until
    /// the daemon stops.
    package func setRunTime(_ preferences: [AudioPreference]?) {
        runTime = preferences
        publishOrigin()
        guard let stateFile else {
            report("state: no state directory (XDG_STATE_HOME and HOME are unset); the preferences last until the daemon stops")
            return
        }
        do {
            try stateFile.write(StateFile.Contents(preferences: preferences?.map(\.description)))
        } catch {
            report("state: cannot save the preferences (\(error)); they last until the daemon stops")
        }
    }

    /// Replaces the configured preferences (a reloaded configuration).
    package func setConfigured(_ preferences: [AudioPreference], origin: PreferenceOrigin) {
        configured = preferences
        configuredOrigin = origin
        publishOrigin()
    }

    /// Hands ``effective`` to `manager`, and again if it changed meanwhile, so that the engine
    /// ends with the last list set however calls interleave.
    package nonisolated func apply(to manager: AudioDeviceManager) async {
        for _ in 0..<4 {
            let wanted = await effective
            await manager.setPreferences(wanted)
            if await effective == wanted { return }
        }
    }
}
