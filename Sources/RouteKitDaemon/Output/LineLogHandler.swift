import Glibc
import Logging

/// A swift-log handler that hands each entry, as one line in `StreamLogHandler`'s format, to a
/// ``LineWriter``: logging never waits for standard error, even when called under a lock.
package struct LineLogHandler: LogHandler {
    /// Who writes the lines.
    package let writer: LineWriter
    /// The logger's label, written in each line.
    package let label: String
    /// Metadata added to every entry.
    package var metadata: Logger.Metadata = [:]
    /// Metadata added to every entry when it is logged.
    package var metadataProvider: Logger.MetadataProvider?
    /// The least level written.
    package var logLevel: Logger.Level = .info

    /// A handler writing through `writer`, under `label`, from `logLevel` up.
    package init(writer: LineWriter, label: String, logLevel: Logger.Level = .info) {
        self.writer = writer
        self.label = label
        self.logLevel = logLevel
    }

    /// One metadata value.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `2026-11-27T18:30:00+0000 warning routectl.daemon: key=value [Source] message`.
    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        writer.write("\(Self.timestamp()) \(event.level) \(label) :\(pairs.isEmpty ? "" : " " + pairs) [\(event.source)] \(event.message)")
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
