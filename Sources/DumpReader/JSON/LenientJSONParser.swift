/// A JSON reader that takes what pastes hold: a document cut off in the middle (what was read
/// is kept, open arrays and objects end at the cut), trailing commas, unquoted keys (QML),
/// JSON inside other text. It never fails: it returns what it could read and where it stopped.
struct LenientJSONParser {
    /// The text, as UTF-8.
    let bytes: [UInt8]
    /// Where reading continues.
    var position: Int
    private var depth = 0
    /// Set when a value nested deeper than ``maximumDepth`` was met: every open array and
    /// object then ends at once, so that a run of brackets costs one pass of bounded depth
    /// (and memory), and the reader can go on from where this one stopped.
    private(set) var stoppedTooDeep = false

    /// The deepest nesting read; deeper values end the read (a guard against hostile input).
    private static let maximumDepth = 256

    /// A reader of `bytes` from `position`.
    init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The value at the current position, nil when there is none.
    mutating func value() -> JSONValue? {
        skipWhitespace()
        guard position < bytes.count, !stoppedTooDeep else { return nil }
        guard depth < Self.maximumDepth else {
            stoppedTooDeep = true
            return nil
        }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return .string(string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return literal()
        }
    }

    private mutating func object() -> JSONValue {
        position += 1
        depth += 1
        defer { depth -= 1 }
        var members: [JSONMember] = []
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "}") {
                position += 1
                break
            }
            if byte == UInt8(ascii: ",") {
                position += 1
                continue
            }
            let key: String
            if byte == UInt8(ascii: "\"") {
                key = string()
            } else if let word = identifier() {
                key = word
            } else {
                break
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { break }
            position += 1
            guard let value = value() else { break }
            members.append(JSONMember(key: key, value: value))
        }
        return .object(members)
    }

    private mutating func array() -> JSONValue {
        position += 1
        depth += 1
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "]") {
                position += 1
                break
            }
            if byte == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard let element = value() else { break }
            elements.append(element)
        }
        return .array(elements)
    }

    /// A string from its opening quote; a string cut off by the end of the text ends there.
    private mutating func string() -> String {
        position += 1
        var utf8: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                break
            }
            guard byte == UInt8(ascii: "\\"), position < bytes.count else {
                utf8.append(byte)
                continue
            }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "n"): utf8.append(10)
            case UInt8(ascii: "t"): utf8.append(9)
            case UInt8(ascii: "r"): utf8.append(13)
            case UInt8(ascii: "b"): utf8.append(8)
            case UInt8(ascii: "f"): utf8.append(12)
            case UInt8(ascii: "u"): utf8 += unicodeEscape()
            default: utf8.append(escaped)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The UTF-8 of a `\uXXXX` escape (a surrogate pair when one follows).
    private mutating func unicodeEscape() -> [UInt8] {
        guard var scalar = hexQuad() else { return Array("\u{FFFD}".utf8) }
        if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
           bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
            let saved = position
            position += 2
            if let low = hexQuad(), (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                position = saved
            }
        }
        return Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
    }

    private mutating func hexQuad() -> UInt32? {
        guard position + 4 <= bytes.count,
              let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            return nil
        }
        position += 4
        return value
    }

    private mutating func number() -> JSONValue {
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) {
            position += 1
        }
        return .number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    private mutating func literal() -> JSONValue? {
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
        where bytes[position...].starts(with: word.utf8) {
            position += word.utf8.count
            return value
        }
        return nil
    }

    /// An unquoted key (`objectName:` in QML).
    private mutating func identifier() -> String? {
        let start = position
        while position < bytes.count, Self.isIdentifierByte(bytes[position]) {
            position += 1
        }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 9, 10, 13, 32: position += 1
            default: return
            }
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
