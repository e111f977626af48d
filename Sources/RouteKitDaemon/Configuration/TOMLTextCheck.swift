import TextSupport

/// What the configuration text must not hold outside quotes and comments, checked before
/// TOMLKit sees it: a character that is not ASCII, a control character, or a table header
/// without a name. TOML allows none of them, and toml++ 3 (inside TOMLKit 0.6) does not always
/// refuse them: a table header that starts with anything but a key (`[écalls]`, a `[` left at
/// the end of a line) fails an assertion inside its key parser, and a `}` inside a list
/// (`[1,}]`) one inside its value parser; either ends the process, the daemon at a SIGHUP
/// reload too. Mismatched brackets are refused here for that. Pure: text in, the first problem
/// out.
package enum TOMLTextCheck {
    /// The first character that is not allowed where it is: its line (from 1) and why.
    package struct Problem: Equatable {
        var line: Int
        var message: String
    }

    private enum Place {
        case code, comment, basic, literal, multiLineBasic, multiLineLiteral
    }

    /// The first problem in `text`, if it has one.
    package static func problem(in text: String) -> Problem? {
        let scalars = Array(text.unicodeScalars)
        var place = Place.code
        var line = 1
        var escaped = false
        var index = 0
        // Brackets and braces open in code, and whether only blanks came since the line began.
        var open: [Unicode.Scalar] = []
        var atLineStart = true
        func starts(_ quote: Unicode.Scalar, at index: Int) -> Bool {
            index + 2 < scalars.count && scalars[index] == quote && scalars[index + 1] == quote && scalars[index + 2] == quote
        }
        while index < scalars.count {
            let scalar = scalars[index]
            defer { if scalar == "\n" { line += 1 } }
            if place == .code, scalar == "[", atLineStart, open.isEmpty, !startsKey(scalars, after: index) {
                return Problem(line: line, message: "a table header needs a name, such as [automatic]")
            }
            atLineStart = scalar == "\n" || ((scalar == " " || scalar == "\t") && atLineStart)
            switch place {
            case .code:
                switch scalar {
                case "[", "{": open.append(scalar)
                case "]", "}":
                    // A `}` where a list's value may come fails another assertion of toml++'s.
                    if let last = open.popLast(), (last == "[") != (scalar == "]") {
                        return Problem(line: line, message: "\"\(scalar)\" closes \"\(last)\"; close a list with ] and a table with }")
                    }
                case "#": place = .comment
                case "\"" where starts("\"", at: index): place = .multiLineBasic; index += 3; continue
                case "'" where starts("'", at: index): place = .multiLineLiteral; index += 3; continue
                case "\"": place = .basic
                case "'": place = .literal
                case "\t", "\n", "\r": break
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        return Problem(line: line, message: "a control character (\(code(scalar))) outside quotes")
                    }
                    if !scalar.isASCII {
                        return Problem(line: line, message: "\"\(TerminalText.escaped(String(scalar)))\" (\(code(scalar))) outside quotes; "
                                       + "TOML writes keys and values in ASCII: put text in quotes")
                    }
                }
            case .comment:
                if scalar == "\n" { place = .code }
            case .basic:
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" || scalar == "\n" { place = .code }
            case .literal:
                if scalar == "'" || scalar == "\n" { place = .code }
            case .multiLineBasic:
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if starts("\"", at: index) { place = .code; index += 3; continue }
            case .multiLineLiteral:
                if starts("'", at: index) { place = .code; index += 3; continue }
            }
            index += 1
        }
        return nil
    }

    /// Whether a key starts after the `[` (or `[[`) at `index` and the blanks after it: a bare
    /// key's character or a quote.
    private static func startsKey(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
        var next = index + 1
        if next < scalars.count, scalars[next] == "[" { next += 1 }
        while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" { next += 1 }
        guard next < scalars.count else { return false }
        let first = scalars[next]
        // What is not ASCII is refused on its own, with its own message.
        return !first.isASCII || (first.properties.isAlphabetic || ("0"..."9").contains(first) || "_-\"'".unicodeScalars.contains(first))
    }

    private static func code(_ scalar: Unicode.Scalar) -> String { EscapedText.code(scalar) }
}
