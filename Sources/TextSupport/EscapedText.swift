/// Text from outside (a sound server, a dump, a D-Bus client, a command line) written so that
/// it cannot drive a terminal or forge a line: control characters (C0, DEL, C1: ESC and line
/// breaks among them) and the backslash that starts an escape become escapes (`\n`, `\r`,
/// `\t`, `\\`, `\xHH`, `\u{HHHH}`), and, where asked, invisible format characters (Unicode's
/// Cf: bidirectional overrides, zero-width spaces, the byte order mark) too. Shared by the
/// command line's output and the daemon's error messages.
package enum EscapedText {
    /// `text` with its control characters and backslashes escaped, and its format characters
    /// too when `formatCharacters` is true.
    package static func escaped(_ text: some StringProtocol, formatCharacters: Bool = false) -> String {
        let needsEscape = { (scalar: Unicode.Scalar) in
            isControl(scalar) || scalar == "\\" || (formatCharacters && isFormat(scalar))
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x80 && needsEscape(scalar): result += "\\x" + hex(scalar.value, digits: 2)
            case _ where needsEscape(scalar): result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A control character: C0, DEL or C1.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// An invisible format character (Unicode's Cf), which reorders or hides text.
    package static func isFormat(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format
    }

    /// `U+001B`, as people name a character.
    package static func code(_ scalar: Unicode.Scalar) -> String {
        "U+" + hex(scalar.value, digits: 4).uppercased()
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
