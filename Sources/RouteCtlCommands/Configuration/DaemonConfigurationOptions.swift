import ArgumentParser
import MediaControl
import RouteKit

/// `routectl daemon`'s configuration options: the file, and the scope over it.
struct DaemonConfigurationOptions: ParsableArguments {
    /// What the daemon routes, as typed.
    enum ScopeName: String, ExpressibleByArgument, CaseIterable, Sendable {
        case system, application
    }

    /// The configuration file.
    @Option(name: .long, help: ArgumentHelp(
        "The configuration file. Default: $XDG_CONFIG_HOME/routekit/routekit.toml (~/.config/routekit/routekit.toml), used when it exists.",
        valueName: "file"))
    var config: String?

    /// `--scope`.
    @Option(name: .long, help: ArgumentHelp(
        "system: the default sink and source, and the streams that follow them; application: only the streams --match selects.",
        valueName: "system|application"))
    var scope: ScopeName?

    /// `--match`, repeated.
    @Option(name: .long, help: ArgumentHelp(
        "A stream property a stream must have to be routed in application scope, such as media.role=phone. Repeat it: a stream must have them all. Implies --scope application.",
        valueName: "key=value"))
    var match: [String] = []

    /// Refuses a malformed `--match` or one beside `--scope system` (exit 64).
    func validate() throws {
        _ = try properties()
        if scope == .system, !match.isEmpty {
            throw ValidationError("--match selects streams for --scope application; --scope system routes them all.")
        }
    }

    /// The `--match` pairs.
    func properties() throws -> [String: String] {
        var properties: [String: String] = [:]
        for pair in match {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--match \(pair): write it as key=value, such as --match media.role=phone.")
            }
            properties[String(parts[0])] = String(parts[1])
        }
        return properties
    }
}

/// What the daemon's command line sets over the configuration file; fixed for the daemon's
/// life, so that a reloaded file never undoes it.
struct DaemonOverrides: Equatable, Sendable {
    /// `--prefer`, when given.
    var preferences: [AudioPreference]?
    /// `--scope`, when given.
    var scope: DaemonConfigurationOptions.ScopeName?
    /// `--match`.
    var match: [String: String] = [:]

    /// `file` with the command line over it. Throws ``RouteCtlFailure/invalidChoice(_:)``
    /// (64) for application scope with no stream property anywhere.
    func applied(to file: DaemonConfiguration) throws(RouteCtlFailure) -> DaemonConfiguration {
        var configuration = file
        if let preferences { configuration.preferences = preferences }
        switch (scope, match.isEmpty) {
        case (.system?, _):
            configuration.scope = .system
        case (.application?, false), (nil, false):
            configuration.scope = .application(StreamSelector(properties: match))
        case (.application?, true):
            guard case .application = file.scope else {
                throw .invalidChoice("""
                    --scope application routes only the streams that --match selects; add one, such as \
                    --match media.role=phone (or [match] in the configuration file).
                    """)
            }
        case (nil, true):
            break
        }
        return configuration
    }

    /// Where the preferences in force come from when none were set at run time.
    func preferenceOrigin(fileHasPreferences: Bool) -> PreferenceOrigin {
        preferences != nil ? .commandLine : fileHasPreferences ? .configurationFile : .none
    }
}

extension DaemonConfiguration {
    /// `preferring bluetooth, then speakerphone; never X; hold-off 2s`, for the daemon's lines.
    var summary: String {
        var parts = [preferences.isEmpty ? "no preferences" : "preferring " + preferences.map(\.description).joined(separator: ", then ")]
        parts.append("scope \(scope.summary)")
        if !automatic.never.isEmpty { parts.append("never by kind " + automatic.never.map(\.name).joined(separator: ", ")) }
        if !automatic.only.isEmpty { parts.append("by kind only " + automatic.only.map(\.name).joined(separator: ", ")) }
        if automatic.holdOff > .zero { parts.append("hold-off \(DurationText.text(automatic.holdOff))") }
        if calls.preferences != .calls { parts.append("calls preferring " + calls.preferences.ordered.map(\.description).joined(separator: ", then ")) }
        if !calls.detects { parts.append("call detection off") }
        if calls.ringing != .both { parts.append("ringing on the \(calls.ringing)") }
        return parts.joined(separator: "; ")
    }
}
