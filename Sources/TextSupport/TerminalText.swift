/// Text from a sound server or a dump made safe for a terminal and for line-based parsing:
/// control characters (C0, DEL, C1, so ESC and line breaks among them) and the backslash are
/// written as escapes, so that a device description cannot move the cursor, change colours,
/// or forge a line that scripts read. JSON output does not use it: its encoder escapes.
package enum TerminalText {
    /// `text` with `\n`, `\r`, `\t`, `\\` and `\xHH` / `\u{HHHH}` escapes for control characters.
    package static func escaped(_ text: String) -> String {
        EscapedText.escaped(text)
    }

    /// `text` with its control characters escaped as ``escaped(_:)`` does, but its
    /// backslashes left alone: a net under whole lines whose parts were escaped already (a
    /// second pass changes nothing in them), so that no line the daemon writes carries a
    /// control character, whichever part forgot.
    package static func controlsEscaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\\" }) else { return text }
        var result = ""
        var plain = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || !needsEscape(scalar) {
                plain.unicodeScalars.append(scalar)
            } else {
                result += plain + escaped(String(scalar))
                plain = ""
            }
        }
        return result + plain
    }

    /// C0 controls, DEL, C1 controls, and the backslash that starts an escape.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        EscapedText.isControl(scalar) || scalar == "\\"
    }
}
