/// Where the daemon's preferences come from, best first.
package enum PreferenceOrigin: String, Sendable, Equatable {
    /// `routectl prefer`, kept in the state file across restarts.
    case runTime
    /// `routectl daemon --prefer`.
    case commandLine
    /// The configuration file.
    case configurationFile
    /// None anywhere.
    case none

    /// For people.
    package var phrase: String {
        switch self {
        case .runTime: "set with 'routectl prefer' (kept across restarts)"
        case .commandLine: "from the daemon's --prefer"
        case .configurationFile: "from the configuration file"
        case .none: "none"
        }
    }
}
