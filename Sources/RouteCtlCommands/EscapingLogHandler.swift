import Logging

/// A log handler that escapes control characters (``TerminalText``) in each message and
/// metadata value before handing it on: RouteKit's log names devices as servers describe
/// them, and those names must not reach the terminal raw.
struct EscapingLogHandler: LogHandler {
    /// The handler that writes.
    var inner: any LogHandler

    /// The inner handler's metadata provider.
    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    /// The inner handler's metadata.
    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    /// The inner handler's level.
    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    /// One metadata value of the inner handler.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    /// Hands `event` on with its message and metadata escaped.
    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.escaped(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.escaped($0.description)) }
        inner.log(event: event)
    }
}
