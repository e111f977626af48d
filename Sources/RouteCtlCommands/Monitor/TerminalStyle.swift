import Glibc

/// How `routectl monitor` writes to its standard output: a table redrawn in place, in
/// colour, on a terminal; plain lines anywhere else. Colours follow the NO_COLOR convention
/// (no-color.org) and are never written to a pipe or a file.
struct TerminalStyle: Equatable, Sendable {
    /// Whether standard output is a terminal that can move its cursor.
    var redrawsInPlace: Bool
    /// Whether to colour.
    var usesColour: Bool

    /// The style for standard output in `environment`.
    static func standardOutput(environment: [String: String]) -> TerminalStyle {
        decide(isTerminal: isatty(STDOUT_FILENO) == 1, environment: environment)
    }

    /// Pure: a terminal (not `TERM=dumb`) redraws; it colours unless `NO_COLOR` is set to
    /// anything but the empty string.
    static func decide(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        let capable = isTerminal && environment["TERM"] != "dumb"
        let noColour = !(environment["NO_COLOR"] ?? "").isEmpty
        return TerminalStyle(redrawsInPlace: capable, usesColour: capable && !noColour)
    }

    /// The terminal's width in columns, 80 when it does not say.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// A colour or weight, as an SGR parameter.
    enum Tint: String, Sendable {
        case bold = "1", dim = "2", green = "32", red = "31", yellow = "33", cyan = "36"
    }

    /// `text` in `tints` when colouring.
    func paint(_ text: String, _ tints: Tint...) -> String {
        guard usesColour, !tints.isEmpty else { return text }
        return "\u{1B}[" + tints.map(\.rawValue).joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }

    /// Moves the cursor home: the frame then overwrites the last one.
    static let home = "\u{1B}[H"
    /// Clears the screen.
    static let clearScreen = "\u{1B}[2J"
    /// Clears the rest of the line.
    static let clearLine = "\u{1B}[K"
    /// Clears below the cursor.
    static let clearBelow = "\u{1B}[J"
}
