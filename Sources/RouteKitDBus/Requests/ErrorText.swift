import TextSupport

/// Text a client sent, as an error message quotes it back (``EscapedText``): control
/// characters and invisible format characters written as escapes, the backslash doubled, so
/// that an answer never carries them raw to the terminal or the log that shows it.
enum ErrorText {
    /// `text` with its control and format characters escaped.
    static func quoted(_ text: some StringProtocol) -> String {
        EscapedText.escaped(text, formatCharacters: true)
    }

    /// A control character (C0, DEL, C1) or an invisible format character (Cf): what no
    /// device id, kind or call state holds.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        EscapedText.isControl(scalar) || EscapedText.isFormat(scalar)
    }

    /// `U+001B`, as people name a character.
    static func code(_ scalar: Unicode.Scalar) -> String { EscapedText.code(scalar) }
}
