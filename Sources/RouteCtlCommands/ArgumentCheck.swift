import ArgumentParser
import TextSupport
import RouteKitDaemon

/// Every word of a `routectl` command line checked before swift-argument-parser reads it, so
/// that what a person could not have meant is refused as a usage error (exit 64), with the
/// word shown escaped, and never reaches a server, the daemon, a file name or the terminal
/// raw: an empty word, a word longer than ``limit`` bytes, control characters (C0, DEL, C1:
/// ESC, line breaks), invisible format characters that reorder or hide text (bidirectional
/// overrides, zero-width spaces, the byte order mark: Unicode's Cf category), and text that
/// was not UTF-8 (decoded as U+FFFD) or is a noncharacter. The value of `--exec` (a shell
/// command the person writes) is only bounded by ``commandLimit``.
enum ArgumentCheck {
    /// The longest word taken: far beyond any device id, server string or path.
    static let limit = 4096
    /// The longest `--exec` command taken.
    static let commandLimit = 65_536

    /// Why a word was refused.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        /// The word's place on the command line, from 1 (after `routectl`).
        var position: Int
        /// The word, escaped and shortened for the terminal.
        var shown: String
        /// What is wrong with it.
        var reason: String

        /// `argument N ("…"): reason`.
        var description: String { "argument \(position) (\"\(shown)\"): \(reason)" }
    }

    /// The first word of `arguments` (without the program's name) that is refused, if any.
    static func refusal(in arguments: [String]) -> Refusal? {
        var previous: String?
        for (offset, word) in arguments.enumerated() {
            defer { previous = word }
            let isCommand = previous == "--exec" || word.hasPrefix("--exec=")
            if let reason = reason(word, limit: isCommand ? commandLimit : limit, checksCharacters: !isCommand) {
                return Refusal(position: offset + 1, shown: shown(word), reason: reason)
            }
        }
        return nil
    }

    private static func reason(_ word: String, limit: Int, checksCharacters: Bool) -> String? {
        if word.allSatisfy({ $0 == " " || $0 == "\t" }) { return "empty; leave it out, or write what it names" }
        if word.utf8.count > limit { return "\(word.utf8.count) bytes, longer than the \(limit) taken" }
        guard checksCharacters else { return nil }
        for scalar in word.unicodeScalars {
            if scalar == "\u{FFFD}" { return "not UTF-8 text" }
            if EscapedText.isControl(scalar) {
                return "a control character (\(code(scalar))) is not taken in an argument"
            }
            if EscapedText.isFormat(scalar) {
                return "an invisible formatting character (\(code(scalar))) is not taken in an argument"
            }
            if scalar.properties.isNoncharacterCodePoint { return "\(code(scalar)) is not a character" }
        }
        return nil
    }

    private static func code(_ scalar: Unicode.Scalar) -> String { EscapedText.code(scalar) }

    /// `word` escaped for the terminal, the format characters too, and cut to 60 characters.
    private static func shown(_ word: String) -> String {
        var text = ""
        for scalar in word.unicodeScalars.prefix(60) {
            if EscapedText.isFormat(scalar) || scalar.properties.isNoncharacterCodePoint {
                text += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                text += TerminalText.escaped(String(scalar))
            }
        }
        return word.unicodeScalars.count > 60 ? text + "…" : text
    }
}

extension RouteCtl {
    /// `routectl` as the executable runs it: the command line checked by ``ArgumentCheck``
    /// first (a refused word exits 64 with its reason on standard error), then parsed and run.
    public static func mainCheckingArguments() async {
        if let refusal = ArgumentCheck.refusal(in: Array(CommandLine.arguments.dropFirst())) {
            printToStandardError("routectl: \(refusal)\nSee 'routectl --help'.")
            exit(withError: ExitCode(64))
        }
        await main()
    }
}
