import Logging
import TextSupport

/// A log handler that escapes control characters (``TerminalText``) in each message and
/// metadata value before handing it on: RouteKit's log names devices as servers describe
/// them, and those names must not reach the terminal raw.
package struct EscapingLogHandler: LogHandler {
    /// The handler that writes.
    package var inner: any LogHandler

    /// Escapes what `inner` writes.
    package init(inner: any LogHandler) {
        self.inner = inner
    }

    /// The inner handler's metadata provider.
    package var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    /// The inner handler's metadata.
    package var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    /// The inner handler's level.
    package var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    /// One metadata value of the inner handler.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    /// Hands `event` on with its message and metadata escaped.
    package func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.escaped(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.escaped($0.description)) }
        inner.log(event: event)
    }
}
