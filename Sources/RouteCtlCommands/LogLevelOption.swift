import ArgumentParser
import Logging
import RouteKitDaemon

/// `--log-level`: how much of RouteKit's own log `routectl daemon` (or `routectl volume-keys`)
/// writes on standard error, beside its own lines.
enum LogLevelOption: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    /// The swift-log level of the same name.
    var level: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }

    /// A logger from this level up whose entries, control characters escaped, go to
    /// `writer` as lines: one that never waits for standard error.
    func logger(label: String, writingTo writer: LineWriter) -> Logger {
        var logger = Logger(label: label) { EscapingLogHandler(inner: LineLogHandler(writer: writer, label: $0)) }
        logger.logLevel = level
        return logger
    }
}
