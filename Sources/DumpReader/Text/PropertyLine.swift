import TextSupport
/// A property list line, `key = "value"`, as `pactl`, `pacmd`, `wpctl inspect` (`* key = ...`)
/// and `pw-cli` print them.
enum PropertyLine {
    /// What a line holds when it is a property line.
    enum Match: Equatable {
        /// A complete property.
        case property(key: String, value: String)
        /// A property whose quoted value never ends on this line.
        case unterminated(key: String)
    }

    /// The property on `text`, or nil when the line is not shaped like one.
    static func match(_ text: String) -> Match? {
        guard let (key, rawValue) = keyAndValue(text) else { return nil }
        guard rawValue.first == "\"" else {
            return .property(key: String(key), value: String(rawValue))
        }
        guard let value = quoted(rawValue) else { return .unterminated(key: String(key)) }
        return .property(key: String(key), value: value)
    }

    /// Whether `text` starts a property (`key =` or `key = "...`), even an unfinished one.
    static func startsProperty(_ text: String) -> Bool {
        keyAndValue(text) != nil
    }

    /// Whether `value` (what follows `key = `) is a quoted string that is not closed yet.
    static func isOpenQuote(_ value: Substring) -> Bool {
        value.first == "\"" && quoted(value) == nil
    }

    /// The key and the raw text after ` = `, when `text` is `[*] key = ...` with a one-word key
    /// (printable, starting with a letter, not ending in a colon).
    static func keyAndValue(_ text: String) -> (key: Substring, value: Substring)? {
        let found: (keyStart: Int, keyEnd: Int, valueStart: Int)? = text.withUTF8Bytes { bytes in
            var start = 0
            if start < bytes.count, bytes[start] == UInt8(ascii: "*") {
                start += 1
                while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 {
                    start += 1
                }
            }
            guard start < bytes.count, isKeyStart(bytes[start]) else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != 32 {
                if bytes[end] == 9 || bytes[end] == UInt8(ascii: "\"") {
                    return nil
                }
                end += 1
            }
            guard end + 1 < bytes.count, bytes[end - 1] != UInt8(ascii: ":"),
                  bytes[end + 1] == UInt8(ascii: "=") else { return nil }
            let afterEquals = end + 2
            guard afterEquals == bytes.count || bytes[afterEquals] == 32 else { return nil }
            return (start, end, min(afterEquals + 1, bytes.count))
        }
        guard let found else { return nil }
        let utf8 = text.utf8
        let keyStart = utf8.index(utf8.startIndex, offsetBy: found.keyStart)
        let keyEnd = utf8.index(keyStart, offsetBy: found.keyEnd - found.keyStart)
        let valueStart = utf8.index(keyStart, offsetBy: found.valueStart - found.keyStart)
        return (text[keyStart..<keyEnd], text[valueStart...].trimmingWhitespace())
    }

    /// The unescaped contents of a quoted value (`"a \"b\""`), nil when the quote is not closed.
    /// PulseAudio escapes only quotes, so a backslash before the line's final quote is taken
    /// as part of the value.
    static func quoted(_ raw: Substring) -> String? {
        raw.withUTF8Bytes { bytes -> String? in
            guard bytes.first == UInt8(ascii: "\"") else { return nil }
            var unescaped: [UInt8] = []
            var hasEscapes = false
            var segmentStart = 1
            var position = 1
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\\"), position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "\"") {
                    unescaped += bytes[segmentStart..<position]
                    unescaped.append(UInt8(ascii: "\""))
                    hasEscapes = true
                    position += 2
                    segmentStart = position
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    guard hasEscapes else {
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<position]), as: UTF8.self)
                    }
                    unescaped += bytes[segmentStart..<position]
                    return String(decoding: unescaped, as: UTF8.self)
                }
                position += 1
            }
            return nil
        }
    }

    /// A key starts with a letter or an underscore.
    private static func isKeyStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
