import TextSupport
/// A `pactl` block heading: a few words and an index, in whichever order and with whichever
/// number sign the language uses (`Sink #3`, `Аудиоприёмник №3`, `Cíl č. 3`, `Slivnik br. 3`,
/// `Receptor nr.3`, `3. nyelő`), possibly decorated (`*** Sink #3 ***` in PulseAudio 0.9,
/// `Card #1 <https://...>` after an e-mail client linked the number).
enum HeadingLine {
    /// The number signs that may precede the index, lowercased.
    private static let numberSigns = ["#", "№", "＃", "č.", "br.", "бр.", "nr.", "nr", "no.", "nº"]

    /// The heading on `text` (its word lowercased), nil when the line is not one.
    /// - Throws: a ``DumpParseError`` when the index does not fit 32 bits.
    static func parse(_ text: String, line: Int) throws(DumpParseError) -> (word: String, index: UInt32)? {
        let mayBeHeading = text.withUTF8Bytes { bytes in
            guard let first = bytes.first, let last = bytes.last,
                  isDigit(first) || isDigit(last) || last == UInt8(ascii: ">") || last == UInt8(ascii: "*") else {
                return false
            }
            for byte in bytes {
                if byte == UInt8(ascii: "<") { return true }
                if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "=") { return false }
            }
            return true
        }
        guard mayBeHeading else { return nil }
        var body = Substring(text)
        if body.hasPrefix("***") { body = body.dropFirst(3).trimmingWhitespace() }
        if body.hasSuffix("***") { body = body.dropLast(3).trimmingWhitespace() }
        if body.last == ">", let open = body.lastIndex(of: "<"), open > body.startIndex {
            body = body[..<open].trimmingWhitespace()
        }
        if let (word, digits) = signedHeading(body) {
            return (word, try index(digits, line: line))
        }
        if let (word, digits) = numberFirstHeading(body) {
            return (word, try index(digits, line: line))
        }
        return nil
    }

    /// `words <sign> digits`.
    private static func signedHeading(_ body: Substring) -> (String, Substring)? {
        let digits = body.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let number = body.suffix(digits.count)
        let before = body.dropLast(digits.count).trimmingWhitespace().lowercased()
        guard let sign = numberSigns.first(where: { before.hasSuffix($0) }) else { return nil }
        let unsigned = before.dropLast(sign.count)
        if sign.first?.isLetter == true, let last = unsigned.last, !last.isWhitespace {
            return nil
        }
        let word = unsigned.trimmingWhitespace()
        guard isHeadingWord(word) else { return nil }
        return (String(word), number)
    }

    /// `digits. words` (Hungarian, Polish), accepted only for known words: a numbered list item
    /// in a pasted message has the same shape.
    private static func numberFirstHeading(_ body: Substring) -> (String, Substring)? {
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        let rest = body.dropFirst(digits.count)
        guard !digits.isEmpty, rest.hasPrefix(". ") else { return nil }
        let word = rest.dropFirst(2).trimmingWhitespace().lowercased()
        guard isHeadingWord(Substring(word)), PactlVocabulary.heading(word) != nil else { return nil }
        return (word, digits)
    }

    /// A heading word: one to five words without punctuation that fields, properties or
    /// sentences would have.
    private static func isHeadingWord(_ word: Substring) -> Bool {
        guard !word.isEmpty, word.count <= 48 else { return false }
        let forbidden: Set<Character> = [":", "：", "=", "\"", "(", ")", "<", ">", ",", ".", "'", "/", "?", "!"]
        guard !word.contains(where: { forbidden.contains($0) }) else { return false }
        return word.split(separator: " ").count <= 5
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func index(_ digits: Substring, line: Int) throws(DumpParseError) -> UInt32 {
        guard let index = UInt32(digits) else {
            throw DumpParseError(line: line, message: "index \(digits) is out of range")
        }
        return index
    }
}
