import Logging
import PulseAudio
import RouteKit

/// What `routectl daemon` knows before it connects: the configuration (file and command
/// line), the preferences a previous run set at run time (the state file), and the lines
/// that say so. Loading refuses an unreadable `--config` file (66), an invalid file (78) and
/// application scope without a stream property (64).
package struct DaemonStartup: Sendable {
    /// Where the configuration file is (nil when nothing says where the default would be).
    package let location: ConfigurationLocation?
    /// The command line's part.
    package let overrides: DaemonOverrides
    /// The configuration in force.
    package let configuration: DaemonConfiguration
    /// The preferences and their state file.
    package let preferences: DaemonPreferences
    /// Lines for the daemon to write once it runs: the file, the scope, the state.
    package let announcements: [String]

    /// Loads everything; `report` receives the daemon's later lines (state file failures).
    package static func prepare(overrides: DaemonOverrides, configFile: String?, environment: [String: String],
                        report: @escaping @Sendable (String) -> Void) throws(DaemonFailure) -> DaemonStartup {
        let location = ConfigurationLocation.resolve(option: configFile, environment: environment)
        let file = try load(location)
        let configuration = try overrides.applied(to: file ?? DaemonConfiguration())
        var lines: [String] = []
        switch (location, file) {
        case (let location?, _?): lines.append("config: \(location.path): \(configuration.summary)")
        case (let location?, nil): lines.append("config: no file at \(location.path); the command line and the defaults apply")
        case (nil, _): lines.append("config: XDG_CONFIG_HOME and HOME are unset: no configuration file; the command line applies")
        }
        if case .application(let selector) = configuration.scope {
            lines.append("daemon: routing only the streams with \(selector) (application scope); the defaults and other streams stay as they are")
        }
        let stateFile = StateFile.standard(environment: environment)
        var restored: [AudioPreference]?
        switch stateFile?.read() {
        case .read(let contents)?:
            restored = StateFile.preferences(in: contents)
            if let restored, let path = stateFile?.path {
                lines.append("state: preferences set with 'routectl prefer' restored from \(path): "
                             + (restored.isEmpty ? "none" : restored.map(\.description).joined(separator: ", then ")))
            }
        case .unusable(let reason)?:
            lines.append("state: \(stateFile?.path ?? "the state file") is unusable (\(reason)); ignoring it")
        case .absent?, nil:
            break
        }
        let preferences = DaemonPreferences(
            configured: configuration.preferences,
            origin: overrides.preferenceOrigin(fileHasPreferences: !(file?.preferences.isEmpty ?? true)),
            restored: restored, stateFile: stateFile, report: report)
        return DaemonStartup(location: location, overrides: overrides, configuration: configuration, preferences: preferences,
                             announcements: lines)
    }

    /// The file's configuration, nil when the default file is absent.
    package static func load(_ location: ConfigurationLocation?) throws(DaemonFailure) -> DaemonConfiguration? {
        guard let location else { return nil }
        do {
            return try location.load()
        } catch {
            switch error {
            case .unreadable(let path, let failure): throw .unreadableConfiguration(path: path, reason: "\(failure)")
            case .invalid(let problem): throw .invalidConfiguration(problem)
            }
        }
    }
}
