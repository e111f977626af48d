import MediaControl
import RouteKit

/// What `--scope` says the daemon routes.
package enum DaemonScopeChoice: String, CaseIterable, Sendable {
    /// The default sink and source, and the streams that follow them.
    case system
    /// Only the streams a stream property selects.
    case application
}

/// What the daemon's command line sets over the configuration file; fixed for the daemon's
/// life, so that a reloaded file never undoes it.
package struct DaemonOverrides: Equatable, Sendable {
    /// `--prefer`, when given.
    package var preferences: [AudioPreference]?
    /// `--scope`, when given.
    package var scope: DaemonScopeChoice?
    /// `--match`.
    package var match: [String: String] = [:]

    /// The command line's `--prefer`, `--scope` and `--match`.
    package init(preferences: [AudioPreference]? = nil, scope: DaemonScopeChoice? = nil, match: [String: String] = [:]) {
        self.preferences = preferences
        self.scope = scope
        self.match = match
    }

    /// `file` with the command line over it. Throws ``DaemonFailure/invalidChoice(_:)``
    /// (64) for application scope with no stream property anywhere.
    package func applied(to file: DaemonConfiguration) throws(DaemonFailure) -> DaemonConfiguration {
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
    package func preferenceOrigin(fileHasPreferences: Bool) -> PreferenceOrigin {
        preferences != nil ? .commandLine : fileHasPreferences ? .configurationFile : .none
    }
}

extension DaemonConfiguration {
    /// `preferring bluetooth, then speakerphone; never X; hold-off 2s`, for the daemon's lines.
    package var summary: String {
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
