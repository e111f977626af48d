import RouteKit
import TextSupport

/// A duration as a configuration file writes it: a number and a unit, `ms` or `s`
/// (`"0s"`, `"500ms"`, `"1.5s"`).
package enum DurationText {
    /// The longest hold-off accepted: a longer one would look like a daemon that does nothing.
    package static let longest = Duration.seconds(600)

    /// `text` as a duration, nil when it is not one or is negative or beyond ``longest``.
    package static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingWhitespace()
        let (number, scale): (Substring, Double)
        if trimmed.hasSuffix("ms") {
            (number, scale) = (trimmed.dropLast(2), 0.001)
        } else if trimmed.hasSuffix("s") {
            (number, scale) = (trimmed.dropLast(1), 1)
        } else {
            return nil
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite else { return nil }
        let milliseconds = (value * scale * 1000).rounded()
        guard milliseconds >= 0, milliseconds <= 600_000 else { return nil }
        return .milliseconds(Int64(milliseconds))
    }

    /// `1.5s`, `500ms`, `0s`: the shortest way to write `duration` back.
    package static func text(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "0s" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        return "\(Double(milliseconds) / 1000)s"
    }
}
