import TextSupport
/// One meaningful line of a pasted dump: its place in the input, how deep it is indented and
/// what it says.
struct DumpLine: Sendable {
    /// The 1-based line number in the input (the first, when wrapped lines were joined).
    var number: Int
    /// Its indentation in columns (a tab advances to the next multiple of 8).
    var indent: Int
    /// The text without indentation, prompt or quote marks and trailing whitespace.
    var text: String
    /// Whether a blank line came before it (wrapped lines are never joined across one).
    var followsBlank: Bool

    /// Splits `input` into lines and drops what no tool printed: blank lines, `# ` comments and
    /// separators (corpus headers included), Markdown code fences, quote marks (`> `, `>`),
    /// the `>>> ` prompt of an interactive `pacmd`, and the elision marks a person leaves where
    /// they cut text out (`...`, `…`, `[...]`), which must not end the block they sit in.
    static func lines(of input: String) -> [DumpLine] {
        input.withUTF8Bytes { bytes in
            var result: [DumpLine] = []
            var blankBefore = false
            var number = 0
            let byteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
            var lineStart = byteOrderMark ? 3 : 0
            var position = lineStart
            while lineStart < bytes.count {
                while position < bytes.count, bytes[position] != 10, bytes[position] != 13 {
                    position += 1
                }
                number += 1
                if let line = line(bytes, lineStart..<position, number: number, blankBefore: blankBefore) {
                    result.append(line)
                    blankBefore = false
                } else {
                    blankBefore = blankBefore || isBlank(bytes, lineStart..<position)
                }
                if position < bytes.count, bytes[position] == 13, position + 1 < bytes.count, bytes[position + 1] == 10 {
                    position += 1
                }
                position += 1
                lineStart = position
            }
            return result
        }
    }

    /// The line in `range`, nil when it is blank or noise.
    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, number: Int,
                             blankBefore: Bool) -> DumpLine? {
        var start = skipQuoteMarks(bytes, range)
        var width = 0
        while start < range.upperBound {
            let byte = bytes[start]
            if byte == 32 {
                width += 1
            } else if byte == 9 {
                width = (width / 8 + 1) * 8
            } else if byte == 0xC2, start + 1 < range.upperBound, bytes[start + 1] == 0xA0 {
                width += 1
                start += 1
            } else {
                break
            }
            start += 1
        }
        var end = range.upperBound
        while end > start, [9, 11, 12, 32].contains(bytes[end - 1]) {
            end -= 1
        }
        guard end > start, !isNoise(bytes, start..<end) else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return DumpLine(number: number, indent: width, text: String(text.trimmingWhitespace()), followsBlank: blankBefore)
    }

    /// Where the line starts after e-mail and Markdown quote marks (`> `, `>> `, `>`), the
    /// `>>> ` pacmd prompt, and a comment mark after indentation (`\t# `): a listing kept as
    /// comments in a script or configuration file. A `# ` at the margin stays a comment line
    /// (corpus headers, Markdown headings), which ``isNoise(_:_:)`` drops.
    private static func skipQuoteMarks(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var start = range.lowerBound
        while true {
            if let commented = afterIndentedCommentMark(bytes, start..<range.upperBound) {
                start = commented
                continue
            }
            var position = start
            while position < range.upperBound, bytes[position] == 32 {
                position += 1
            }
            guard position < range.upperBound, bytes[position] == UInt8(ascii: ">") else { return start }
            while position < range.upperBound, bytes[position] == UInt8(ascii: ">") {
                position += 1
            }
            if position == range.upperBound {
                return position
            }
            // A Markdown quote may omit the space (an Obsidian callout's `>id 60, type ...`): no
            // tool prints a line that starts with `>`, so the marks go either way.
            start = bytes[position] == 32 || bytes[position] == 9 ? position + 1 : position
        }
    }

    /// Where the text starts after `# ` (or `#` and a tab) that follows indentation, nil when the
    /// line has no such mark. The whitespace after the mark's one space is the listing's own
    /// indentation and stays.
    private static func afterIndentedCommentMark(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var position = range.lowerBound
        while position < range.upperBound, bytes[position] == 32 || bytes[position] == 9 {
            position += 1
        }
        guard position > range.lowerBound, position + 1 < range.upperBound, bytes[position] == UInt8(ascii: "#"),
              bytes[position + 1] == 32 || bytes[position + 1] == 9 else { return nil }
        return position + 2
    }

    /// A line of nothing but an ellipsis, bare or in brackets: `...`, `....`, `…`, `[...]`, `(…)`.
    private static func isElision(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var inner = range
        if inner.count >= 2, [UInt8(ascii: "["), UInt8(ascii: "(")].contains(bytes[inner.lowerBound]),
           [UInt8(ascii: "]"), UInt8(ascii: ")")].contains(bytes[inner.upperBound - 1]) {
            inner = inner.lowerBound + 1..<inner.upperBound - 1
        }
        var dots = 0
        var position = inner.lowerBound
        while position < inner.upperBound {
            if bytes[position] == UInt8(ascii: ".") {
                dots += 1
                position += 1
            } else if position + 2 < inner.upperBound, bytes[position] == 0xE2, bytes[position + 1] == 0x80,
                      bytes[position + 2] == 0xA6 {
                dots += 3
                position += 3
            } else {
                return false
            }
        }
        return dots >= 3
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.allSatisfy { [9, 11, 12, 32].contains(bytes[$0]) }
    }

    /// Comment and separator lines (`# note`, `#`, `# ----`, `## Section`), code fences and
    /// elision marks.
    private static func isNoise(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        if isElision(bytes, range) { return true }
        let first = bytes[range.lowerBound]
        if range.count >= 3, first == UInt8(ascii: "`") || first == UInt8(ascii: "~"),
           bytes[range.lowerBound + 1] == first, bytes[range.lowerBound + 2] == first {
            return true
        }
        guard first == UInt8(ascii: "#") else { return false }
        guard range.count > 1 else { return true }
        return [UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "#"), UInt8(ascii: "=")]
            .contains(bytes[range.lowerBound + 1])
    }
}
