import Logging
import Synchronization

/// What RouteKit logged at warning level and above (debug and above with `--trace`) during
/// a run, counted by message, instead of being printed between the figures.
final class LogCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// An empty tally.
    init() {}

    /// A logger whose messages at `level` and above land in this tally.
    func logger(label: String, level: Logger.Level = .warning) -> Logger {
        Logger(label: label) { _ in CountingLogHandler(counts: self, logLevel: level) }
    }

    /// Counts one message.
    func add(_ message: String) {
        counts.withLock { $0[message, default: 0] += 1 }
    }

    /// Every message with its count, most frequent first; empties the tally.
    func drain() -> [(message: String, count: Int)] {
        counts.withLock { counts in
            defer { counts.removeAll() }
            return counts.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
        }
    }
}

/// Hands messages, with their `error` metadata, to a ``LogCounts``.
struct CountingLogHandler: LogHandler {
    /// Where messages are counted.
    let counts: LogCounts
    /// Metadata set on the logger.
    var metadata: Logger.Metadata = [:]
    /// The lowest level counted.
    var logLevel: Logger.Level = .warning

    /// Metadata by key.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Counts the message, with the error it carries if any.
    func log(event: LogEvent) {
        let error = event.error.map { "\($0)" } ?? (event.metadata?["error"] ?? metadata["error"]).map { "\($0)" }
        counts.add("\(event.level): \(event.message)" + (error.map { " (\($0))" } ?? ""))
    }
}
