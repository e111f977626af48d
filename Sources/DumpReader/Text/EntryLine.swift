import TextSupport
/// A port or profile line: `name: description (attributes)`.
///
/// Names may hold spaces, colons and semicolons (`[Out] Speaker`, `output:analog-stereo`,
/// `analog-output;output-bass-boost-on`) and descriptions parentheses (`Digital Output (S/PDIF)`),
/// so the name ends at the first `: ` and the attributes are the final parenthesised group.
enum EntryLine {
    /// The entry on `text`. A line rewritten by hand as `[Out] Earpiece (type: Earpiece) — Part
    /// of profile: Voice Call` gives its profiles too.
    static func parse(_ text: String, line: Int) -> RawEntry {
        var main = Substring(text)
        var profileNames: [String] = []
        if let (before, trailer) = main.split(atFirst: " — ") {
            main = before
            if let (_, list) = trailer.split(atFirst: ": ") {
                profileNames = DumpValues.profileList(list)
            }
        }
        let (head, attributes) = splitAttributes(droppingJoinedHeader(main))
        let name: Substring
        let description: Substring
        if let (before, after) = head.split(atFirst: ": ") ?? head.split(atFirst: "：") {
            (name, description) = (before, after)
        } else if head.last == ":" {
            (name, description) = (head.dropLast().trimmingWhitespace(), "")
        } else {
            (name, description) = (head, "")
        }
        return RawEntry(name: String(name), description: String(description),
                        attributes: attributes.map(String.init), profileNames: profileNames, line: line)
    }

    /// Whether `text` ends in an attribute group that says something (a colon or a number),
    /// which is how entries are told from fields when a paste lost its indentation.
    static func hasAttributes(_ text: String) -> Bool {
        var main = Substring(text)
        if let (before, _) = main.split(atFirst: " — ") {
            main = before
        }
        guard let attributes = splitAttributes(droppingJoinedHeader(main)).attributes else { return false }
        return attributes.contains { $0 == ":" || $0 == "：" || ($0.isASCII && $0.isNumber) }
    }

    /// `text` without a section heading a paste joined after its attribute group (`...,
    /// available: no)         properties:`, the heading of the port's next line).
    private static func droppingJoinedHeader(_ text: Substring) -> Substring {
        guard text.hasSuffix(":"), let close = text.lastIndex(of: ")") else { return text }
        let trailer = text[text.index(after: close)...]
        guard trailer.first?.isWhitespace == true,
              PactlVocabulary.field(String(trailer.trimmingWhitespace().dropLast())) == .properties else { return text }
        return text[...close]
    }

    /// The text before the final parenthesised group and the group's contents (ASCII or
    /// full-width parentheses).
    private static func splitAttributes(_ text: Substring) -> (head: Substring, attributes: Substring?) {
        let offsets: (open: Int, close: Int)? = text.withUTF8Bytes { bytes in
            func closes(_ end: Int) -> Int? {
                if end >= 1, bytes[end - 1] == UInt8(ascii: ")") { return 1 }
                if end >= 3, bytes[end - 3] == 0xEF, bytes[end - 2] == 0xBC, bytes[end - 1] == 0x89 { return 3 }
                return nil
            }
            func opens(_ end: Int) -> Int? {
                if end >= 1, bytes[end - 1] == UInt8(ascii: "(") { return 1 }
                if end >= 3, bytes[end - 3] == 0xEF, bytes[end - 2] == 0xBC, bytes[end - 1] == 0x88 { return 3 }
                return nil
            }
            guard let closing = closes(bytes.count) else { return nil }
            var depth = 0
            var end = bytes.count
            while end > 0 {
                if let width = closes(end) {
                    depth += 1
                    end -= width
                } else if let width = opens(end) {
                    depth -= 1
                    end -= width
                    if depth == 0 {
                        return (end, bytes.count - closing)
                    }
                } else {
                    end -= 1
                }
            }
            return nil
        }
        guard let offsets else { return (text, nil) }
        let utf8 = text.utf8
        let open = utf8.index(utf8.startIndex, offsetBy: offsets.open)
        let contentsStart = text.index(after: open)
        let contentsEnd = utf8.index(utf8.startIndex, offsetBy: offsets.close)
        return (text[..<open].trimmingWhitespace(), text[contentsStart..<contentsEnd])
    }
}
