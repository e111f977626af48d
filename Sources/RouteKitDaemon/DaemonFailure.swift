import PulseAudio

/// Why the daemon could not start or went on no further; `routectl` turns each into its
/// message and exit status (`RouteCtlFailure`).
package enum DaemonFailure: Error, CustomStringConvertible {
    /// The server answered, but refused or failed a request.
    case requestFailed(PulseError)
    /// The configuration file could not be read.
    case unreadableConfiguration(path: String, reason: String)
    /// The configuration file says something wrong.
    case invalidConfiguration(ConfigurationError)
    /// The command line and the file together ask for something that cannot be (usage).
    case invalidChoice(String)
    /// A D-Bus name the daemon serves is owned by another process (another daemon, callaudiod).
    case busNameTaken(String)

    package var description: String {
        switch self {
        case .requestFailed(let error): "the server could not \(error.operation): \(error.reason)"
        case .unreadableConfiguration(let path, let reason): "cannot read the configuration file \(path): \(reason)"
        case .invalidConfiguration(let error): "\(error)"
        case .invalidChoice(let message), .busNameTaken(let message): message
        }
    }
}
