/// The line each key of a TOML text is written on, by dotted path (`automatic.hold-off`), so
/// that an error about a key can name its line. It reads key names and skips values (strings,
/// multi-line strings and arrays, inline tables) only to stay in step; TOMLKit parses the
/// file, and nothing here decides what a value is.
package struct TOMLKeyLines {
    /// The first line of each key or table header, by path.
    private(set) var lines: [[String]: Int] = [:]
    /// The most parts of any key's path (a table's and its own), and the first line where it is.
    private(set) var deepest: (parts: Int, line: Int) = (0, 0)

    /// Reads where the keys of `text` are. It reads UTF-8 bytes: everything TOML gives a
    /// meaning to is ASCII, a byte of a longer character is never one of them, and a key's
    /// quoted part is decoded whole.
    package init(_ text: String) {
        var table: [String] = []
        var value = ValueScanner()
        let bytes = Array(text.utf8)
        var offset = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            // "\r\n" ends a line as "\n" does.
            let lineEnd = newline > lineStart && bytes[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
            let line = bytes[lineStart..<lineEnd]
            offset += 1
            lineStart = newline + 1
            if value.isOpen {
                value.scan(line, from: line.startIndex)
                continue
            }
            var index = line.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? line.endIndex
            guard index < line.endIndex, line[index] != UInt8(ascii: "#") else { continue }
            if line[index] == UInt8(ascii: "[") {
                let isArray = index + 1 < line.endIndex && line[index + 1] == UInt8(ascii: "[")
                index += isArray ? 2 : 1
                guard let (path, _) = Self.key(in: line, from: index) else { continue }
                table = path
                record(path, line: offset)
                continue
            }
            guard let (path, end) = Self.key(in: line, from: index), end < line.endIndex,
                  line[end] == UInt8(ascii: "=") else { continue }
            record(table + path, line: offset)
            value.scan(line, from: end + 1)
        }
    }

    /// The line of `path`, or else of the nearest table or key that holds it (a key inside an
    /// inline table is on its table's line).
    package func line(of path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path.removeLast()
        }
        return nil
    }

    /// The key written first on `line`, dotted, if one is.
    package func key(onLine line: Int) -> String? {
        lines.filter { $0.value == line }.map(\.key).max { $0.count < $1.count }?.joined(separator: ".")
    }

    private mutating func record(_ path: [String], line: Int) {
        // Each table a dotted key or header opens too (`a.b.c = 1` opens a and a.b), so that
        // an error about any of them names this line: the first 32 (a deeper key is refused
        // for its depth, and every prefix of a key 500 000 parts deep would take quadratic time).
        for count in 1...max(1, min(path.count, 32)) where lines[Array(path.prefix(count))] == nil {
            lines[Array(path.prefix(count))] = line
        }
        if path.count > deepest.parts { deepest = (path.count, line) }
    }

    /// A dotted key from `start`: bare parts (`A-Z a-z 0-9 _ -`) and quoted ones, and the
    /// index after it and the spaces that follow.
    package static func key(in line: ArraySlice<UInt8>, from start: Int) -> ([String], Int)? {
        var parts: [String] = []
        var index = start
        func skipSpaces() { while index < line.endIndex, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") { index += 1 } }
        while true {
            skipSpaces()
            guard index < line.endIndex else { return nil }
            let first = line[index]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                var part: [UInt8] = []
                index += 1
                while index < line.endIndex, line[index] != first {
                    if first == UInt8(ascii: "\""), line[index] == UInt8(ascii: "\\"), index + 1 < line.endIndex { index += 1 }
                    part.append(line[index])
                    index += 1
                }
                guard index < line.endIndex else { return nil }
                index += 1
                parts.append(String(decoding: part, as: UTF8.self))
            } else {
                let begin = index
                while index < line.endIndex, line[index].isBareKeyByte { index += 1 }
                guard index > begin else { return nil }
                parts.append(String(decoding: line[begin..<index], as: UTF8.self))
            }
            skipSpaces()
            guard index < line.endIndex, line[index] == UInt8(ascii: ".") else { return (parts, index) }
            index += 1
        }
    }
}

/// Follows a value across lines: open multi-line strings, and open brackets and braces.
private struct ValueScanner {
    /// The quote of a multi-line string still open (`"""` or `'''`).
    package var openString: UInt8?
    /// Brackets and braces still open.
    package var depth = 0

    /// Whether the value goes on to the next line.
    package var isOpen: Bool { openString != nil || depth > 0 }

    package mutating func scan(_ line: ArraySlice<UInt8>, from start: Int) {
        var index = start
        while index < line.endIndex {
            if let delimiter = openString {
                guard let end = find(delimiter, in: line, from: index) else { return }
                openString = nil
                index = end + 3
                continue
            }
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "#"):
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if starts(with: byte, count: 3, in: line, at: index) {
                    openString = byte
                    index += 3
                    continue
                }
                index += 1
                while index < line.endIndex, line[index] != byte {
                    if byte == UInt8(ascii: "\""), line[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
                index += 1
            default:
                index += 1
            }
        }
    }

    /// Whether `count` copies of `byte` start at `index` (a look there only: searching the
    /// rest of the line at every quote made a line of quotes take quadratic time).
    private func starts(with byte: UInt8, count: Int, in line: ArraySlice<UInt8>, at index: Int) -> Bool {
        index + count <= line.endIndex && line[index..<index + count].allSatisfy { $0 == byte }
    }

    /// Where three `quote` bytes in a row next start, from `start`.
    private func find(_ quote: UInt8, in line: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 3 <= line.endIndex {
            if line[index] == quote, line[index + 1] == quote, line[index + 2] == quote { return index }
            index += 1
        }
        return nil
    }
}

private extension UInt8 {
    /// What a bare TOML key is made of.
    var isBareKeyByte: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
