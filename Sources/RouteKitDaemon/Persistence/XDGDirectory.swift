/// The XDG base directories routectl uses, from the environment as the XDG Base Directory
/// specification says: the variable when it holds an absolute path, else its default under
/// `HOME`.
package enum XDGDirectory: Sendable {
    /// `XDG_CONFIG_HOME`, default `~/.config`: the configuration file.
    case config
    /// `XDG_STATE_HOME`, default `~/.local/state`: preferences set at run time.
    case state
    /// `XDG_RUNTIME_DIR`, no default: what lasts only as long as the session (direct call audio).
    case runtime

    /// The directory, or nil when the environment does not say.
    package func path(environment: [String: String]) -> String? {
        let (variable, fallback): (String, String?) = switch self {
        case .config: ("XDG_CONFIG_HOME", ".config")
        case .state: ("XDG_STATE_HOME", ".local/state")
        case .runtime: ("XDG_RUNTIME_DIR", nil)
        }
        if let value = environment[variable], value.hasPrefix("/") { return value }
        guard let fallback, let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + fallback
    }
}
