import FoundationEssentials
import RouteKit
import TextSupport

/// Reading `pw-metadata`'s output.
extension PipeWireConfiguredDefaults {

    /// The configured defaults in `pw-metadata -n default 0`'s output: a line
    /// `Found "default" metadata <id>`, then one line per key of subject 0, as
    /// `update: id:0 key:'<key>' value:'<value>' type:'<type>'` (PipeWire 0.3's format, which
    /// prints values as they are, unescaped). Keys other than the two configured defaults,
    /// and other subjects, are ignored.
    ///
    /// Throws ``Failure/noMetadata`` for empty output (PipeWire has no `default` metadata: no
    /// session manager runs), and ``Failure/unparseable(line:reason:)`` for output that is not
    /// `pw-metadata`'s, an `update` line out of shape, or a configured default's value that
    /// ``deviceName(fromJSON:)`` cannot read.
    package static func parse(_ output: String) throws(Failure) -> ConfiguredDefaults {
        try parse(output, keys: (sink: sinkKey, source: sourceKey))
    }

    /// The defaults under `keys` (the configured ones, or those in use) in `pw-metadata -n
    /// default 0`'s output, read and checked as ``parse(_:)`` says.
    package static func parse(_ output: String, keys: (sink: String, source: String)) throws(Failure) -> ConfiguredDefaults {
        var defaults = ConfiguredDefaults(sink: nil, source: nil)
        var found = false
        for rawLine in output.split(whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.hasPrefix("Found \"") {
                found = true
            } else if line.hasPrefix("update:") {
                let update = try MetadataUpdate(line: line)
                guard update.subject == 0 else { continue }
                switch update.key {
                case keys.sink: defaults.sink = try name(in: update, line: line)
                case keys.source: defaults.source = try name(in: update, line: line)
                default: continue
                }
            }
        }
        guard found else {
            let text = output.trimmingWhitespace()
            if text.isEmpty { throw .noMetadata }
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
            throw .unparseable(line: first, reason: "not pw-metadata's output: no \"Found \\\"default\\\" metadata\" line")
        }
        return defaults
    }

    private static func name(in update: MetadataUpdate, line: String) throws(Failure) -> String {
        do {
            return try deviceName(fromJSON: update.value)
        } catch .unparseable(_, let reason) {
            throw .unparseable(line: line, reason: "\(update.key): \(reason)")
        } catch {
            throw error
        }
    }

    /// The `name` of a default's SPA JSON value: `{ "name": "usb_headset" }` as pipewire-pulse
    /// writes it, `{"name":"usb_headset"}` as WirePlumber does, or any relaxed SPA JSON form
    /// (`{ name = usb_headset }`: bare words, `=` or `:`, commas optional). Strings are
    /// unescaped (`\"`, `\\`, `\n`, `\uXXXX`, …). Other members are skipped.
    ///
    /// Throws ``Failure/unparseable(line:reason:)`` (with `value` as the line) for anything
    /// else: not an object, no `name`, a `name` that is not a non-empty string, or text after
    /// the object.
    package static func deviceName(fromJSON value: String) throws(Failure) -> String {
        var scanner = SPAJSONScanner(value)
        guard let name = try scanner.nameMember() else {
            throw .unparseable(line: value, reason: "the object has no \"name\"")
        }
        guard !name.isEmpty else { throw .unparseable(line: value, reason: "the name is empty") }
        return name
    }
}
