import FoundationEssentials
import RouteKit
import TextSupport

/// How reading or writing the configured defaults fails.
extension PipeWireConfiguredDefaults {
    /// Why the configured defaults could not be read.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `pw-metadata` is not installed: it is in none of these directories (the `PATH`
        /// searched), or the path given is not an executable file.
        case toolMissing(executable: String, searched: [String])
        /// `pw-metadata` could not be started.
        case launchFailed(path: String, reason: String)
        /// `pw-metadata` exited with a status other than 0 (255 when it cannot reach PipeWire),
        /// having written `standardError`.
        case failed(status: Int32, standardError: String)
        /// A signal ended `pw-metadata`.
        case killed(signal: Int32, standardError: String)
        /// `pw-metadata` had not finished within the timeout and was killed.
        case timedOut(after: Duration)
        /// PipeWire has no `default` metadata (no session manager such as WirePlumber runs),
        /// so configured defaults cannot be known.
        case noMetadata
        /// `line` of the output could not be read, for `reason`.
        case unparseable(line: String, reason: String)

        /// One sentence for people.
        public var description: String {
            switch self {
            case .toolMissing(let executable, let searched):
                if executable.contains("/") { return "\(executable) is not an executable file (is pipewire-bin installed?)" }
                return "\(executable) is not installed: not found in \(searched.joined(separator: ":")) (it comes with pipewire-bin)"
            case .launchFailed(let path, let reason):
                return "could not start \(path): \(reason)"
            case .failed(let status, let standardError):
                return "pw-metadata failed with status \(status)" + Self.quoting(standardError)
            case .killed(let signal, let standardError):
                return "pw-metadata was killed by signal \(signal)" + Self.quoting(standardError)
            case .timedOut(let timeout):
                return "pw-metadata did not finish within \(timeout) and was killed (is PipeWire frozen?)"
            case .noMetadata:
                return "PipeWire has no \"default\" metadata (is WirePlumber running?)"
            case .unparseable(let line, let reason):
                return "cannot read pw-metadata's output \"\(line)\": \(reason)"
            }
        }

        private static func quoting(_ standardError: String) -> String {
            let text = standardError.trimmingWhitespace()
            return text.isEmpty ? "" : ": \(text)"
        }
    }
}
