import TextSupport
extension StringProtocol where SubSequence == Substring {
    /// The text without leading and trailing whitespace (no-break spaces included).
    func trimmingWhitespace() -> Substring {
        let text = Substring(self)
        var start = text.startIndex
        var end = text.endIndex
        let bytes = text.utf8
        while start < end {
            let byte = bytes[start]
            if byte == 32 || byte == 9 {
                start = bytes.index(after: start)
            } else if byte >= 0x80, text[start].isWhitespace {
                start = text.index(after: start)
            } else {
                break
            }
        }
        while end > start {
            let last = bytes.index(before: end)
            let byte = bytes[last]
            if byte == 32 || byte == 9 || byte == 13 {
                end = last
            } else if byte >= 0x80, text[text.index(before: end)].isWhitespace {
                end = text.index(before: end)
            } else {
                break
            }
        }
        return text[start..<end]
    }

    /// Whether the text is one or more ASCII digits.
    var isASCIIDigits: Bool {
        withUTF8Bytes { bytes in !bytes.isEmpty && bytes.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }

    /// The first occurrence of `separator`, searched byte by byte (fast, even in debug builds).
    func byteRange(of separator: String) -> Range<Index>? {
        let needle = Array(separator.utf8)
        let offset: Int? = withUTF8Bytes { bytes in
            guard let first = needle.first, bytes.count >= needle.count else { return nil }
            var position = 0
            let last = bytes.count - needle.count
            while position <= last {
                if bytes[position] == first {
                    var matched = 1
                    while matched < needle.count, bytes[position + matched] == needle[matched] {
                        matched += 1
                    }
                    if matched == needle.count {
                        return position
                    }
                }
                position += 1
            }
            return nil
        }
        guard let offset else { return nil }
        let lower = utf8.index(startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.count)
    }

    /// The text split at the first occurrence of `separator`, both sides trimmed.
    func split(atFirst separator: String) -> (before: Substring, after: Substring)? {
        guard let range = byteRange(of: separator) else { return nil }
        return (self[startIndex..<range.lowerBound].trimmingWhitespace(),
                self[range.upperBound..<endIndex].trimmingWhitespace())
    }

    /// Runs `body` on the text's UTF-8 bytes, without copying when the text is native.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        var copy = String(self)
        return copy.withUTF8(body)
    }
}

extension Substring {
    /// The text without one pair of enclosing angle brackets, as `pacmd` prints names
    /// (`<alsa_output.pci-0000_00_1f.3.analog-stereo>`).
    var withoutAngleBrackets: Substring {
        if count >= 2, first == "<", last == ">" {
            return dropFirst().dropLast()
        }
        return self
    }
}
