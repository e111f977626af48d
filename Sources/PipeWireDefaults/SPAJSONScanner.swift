import FoundationEssentials
import RouteKit


/// Just enough of SPA JSON (PipeWire's relaxed JSON) to read a default's `name`: an object
/// whose keys and values are strings or bare words, `:` or `=` between them, commas
/// optional, nested containers skipped.
struct SPAJSONScanner {
    typealias Failure = PipeWireConfiguredDefaults.Failure

    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    private func failure(_ reason: String) -> Failure { .unparseable(line: text, reason: reason) }

    /// The value of the object's `name` member, nil when it has none.
    mutating func nameMember() throws(Failure) -> String? {
        skipSpace()
        guard next() == "{" else { throw failure("not a SPA JSON object") }
        var name: String?
        while true {
            skipSeparators()
            guard let scalar = peek() else { throw failure("the object is not closed") }
            if scalar == "}" {
                position += 1
                break
            }
            let key = try keyToken()
            skipSpace()
            if peek() == ":" || peek() == "=" { position += 1 }
            skipSpace()
            guard let start = peek() else { throw failure("\"\(key)\" has no value") }
            if key == "name" {
                switch start {
                case "\"": name = try quotedString()
                case "{", "[": throw failure("the name is not a string")
                default:
                    let word = bareWord()
                    guard !word.isEmpty, word != "null", word != "true", word != "false",
                          Double(word) == nil else { throw failure("the name is not a string (\(word.isEmpty ? "nothing" : word))") }
                    name = word
                }
            } else {
                try skipValue()
            }
        }
        skipSpace()
        guard position == scalars.count else { throw failure("text after the object") }
        return name
    }

    private mutating func keyToken() throws(Failure) -> String {
        if peek() == "\"" { return try quotedString() }
        let word = bareWord()
        guard !word.isEmpty else { throw failure("expected a key at \"\(String(String.UnicodeScalarView(scalars[position...])))\"") }
        return word
    }

    private mutating func skipValue() throws(Failure) {
        switch peek() {
        case "\"":
            _ = try quotedString()
        case "{", "[":
            var depth = 0
            while let scalar = next() {
                switch scalar {
                case "\"":
                    position -= 1
                    _ = try quotedString()
                case "{", "[": depth += 1
                case "}", "]":
                    depth -= 1
                    if depth == 0 { return }
                default: break
                }
            }
            throw failure("a nested value is not closed")
        default:
            guard !bareWord().isEmpty else { throw failure("expected a value") }
        }
    }

    /// A quoted string, unescaped as SPA JSON does: the usual escapes, `\uXXXX` (surrogate
    /// pairs joined), and any other escaped character as itself.
    private mutating func quotedString() throws(Failure) -> String {
        position += 1  // the opening quote
        var result = String.UnicodeScalarView()
        while let scalar = next() {
            switch scalar {
            case "\"":
                return String(result)
            case "\\":
                guard let escaped = next() else { break }
                switch escaped {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "u": result.append(try unicodeEscape())
                default: result.append(escaped)
                }
            default:
                result.append(scalar)
            }
        }
        throw failure("a string is not closed")
    }

    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high), peek() == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" {
            position += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a \\u surrogate pair is broken") }
            let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            if let scalar = Unicode.Scalar(combined) { return scalar }
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("\\u\(String(high, radix: 16)) is not a character") }
        return scalar
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = next(), let digit = scalar.properties.isASCIIHexDigit ? UInt32(String(scalar), radix: 16) : nil else {
                throw failure("a \\u escape needs four hexadecimal digits")
            }
            value = value * 16 + digit
        }
        return value
    }

    /// A run of characters up to a space or a structural character (SPA JSON's bare words).
    private mutating func bareWord() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek(), !scalar.properties.isWhitespace, !"{}[]:=,\"".unicodeScalars.contains(scalar) {
            result.append(scalar)
            position += 1
        }
        return String(result)
    }

    private mutating func skipSpace() {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
    }

    private mutating func skipSeparators() {
        while let scalar = peek(), scalar.properties.isWhitespace || scalar == "," { position += 1 }
    }

    private func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func next() -> Unicode.Scalar? {
        guard position < scalars.count else { return nil }
        defer { position += 1 }
        return scalars[position]
    }
}
