import ArgumentParser
import Logging

/// `--log-level`: how much of RouteKit's own log `routectl daemon` writes on standard error,
/// beside its event lines.
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

    /// A logger that writes to standard error from this level up, control characters escaped,
    /// without bootstrapping the process-wide logging system (the commands are a library that
    /// tests run in-process).
    func standardErrorLogger(label: String) -> Logger {
        var logger = Logger(label: label) { EscapingLogHandler(inner: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = level
        return logger
    }
}
