/// Undoes the hard wrapping of e-mail clients and forums: a long line broken in two shows as
/// a property whose quote never closes, a `key =` with its value on the next line, a line with
/// an unclosed parenthesis, or a list ending in a comma. Such lines are joined back with a
/// space, but only when that closes what was open, so that real lines are never glued together.
enum WrappedLines {
    /// The most lines joined onto one: a wrapped line is a few screen lines, not a whole paste.
    private static let maximumJoin = 12

    /// `lines` with wrapped lines joined.
    static func join(_ lines: [DumpLine]) -> [DumpLine] {
        var result: [DumpLine] = []
        result.reserveCapacity(lines.count)
        var position = 0
        while position < lines.count {
            var line = lines[position]
            position += 1
            var joined = 0
            while joined < maximumJoin, let consumed = continuation(of: line.text, in: lines, from: position) {
                line.text = ([line.text] + lines[position..<position + consumed].map(\.text)).joined(separator: " ")
                position += consumed
                joined += consumed
            }
            result.append(line)
        }
        return result
    }

    /// How many of the lines from `next` complete `text`, nil when it is complete or they do not.
    private static func continuation(of text: String, in lines: [DumpLine], from next: Int) -> Int? {
        guard next < lines.count, !lines[next].followsBlank else { return nil }
        if let (_, value) = PropertyLine.keyAndValue(text) {
            if value.isEmpty {
                return lines[next].text.first == "\"" ? 1 : nil
            }
            guard PropertyLine.isOpenQuote(value) else { return nil }
            return completing(text, in: lines, from: next, limit: 8) { joined in
                PropertyLine.keyAndValue(joined).map { !PropertyLine.isOpenQuote($0.value) } ?? false
            }
        }
        if parenthesisDepth(text) > 0 {
            return completing(text, in: lines, from: next, limit: 3) { parenthesisDepth($0) <= 0 }
        }
        if text.hasSuffix(","), isPlainContinuation(lines[next].text) {
            return 1
        }
        return nil
    }

    /// The number of lines (at most `limit`) after which `isComplete` holds for the join.
    private static func completing(_ text: String, in lines: [DumpLine], from next: Int, limit: Int,
                                   isComplete: (String) -> Bool) -> Int? {
        var joined = text
        var count = 0
        while count < limit, next + count < lines.count {
            let candidate = lines[next + count]
            guard count == 0 || !candidate.followsBlank, isPlainContinuation(candidate.text) else { return nil }
            joined += " " + candidate.text
            count += 1
            if isComplete(joined) {
                return count
            }
        }
        return nil
    }

    /// Whether `text` can be the tail of a wrapped line: not something that starts a line of its own.
    private static func isPlainContinuation(_ text: String) -> Bool {
        if PropertyLine.startsProperty(text) { return false }
        switch try? LineShape.of(DumpLine(number: 0, indent: 0, text: text, followsBlank: false)) {
        case .heading?, .listHeader?, .pacmdIndex?, .pipeWireObject?, .sectionHeader?: return false
        default: return true
        }
    }

    /// Open minus closed parentheses outside quotes.
    private static func parenthesisDepth(_ text: String) -> Int {
        text.withUTF8Bytes { bytes in
            var depth = 0
            var inQuotes = false
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): inQuotes.toggle()
                case UInt8(ascii: "(") where !inQuotes: depth += 1
                case UInt8(ascii: ")") where !inQuotes: depth -= 1
                default: break
                }
            }
            return depth
        }
    }
}
