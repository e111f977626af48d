/// The line each key of a TOML text is written on, by dotted path (`automatic.hold-off`), so
/// that an error about a key can name its line. It reads key names and skips values (strings,
/// multi-line strings and arrays, inline tables) only to stay in step; TOMLKit parses the
/// file, and nothing here decides what a value is.
package struct TOMLKeyLines {
    /// The first line of each key or table header, by path.
    private(set) var lines: [[String]: Int] = [:]
    /// The most parts of any key's path (a table's and its own), and the first line where it is.
    private(set) var deepest: (parts: Int, line: Int) = (0, 0)

    /// Reads where the keys of `text` are.
    package init(_ text: String) {
        var table: [String] = []
        var value = ValueScanner()
        // "\r\n" is one Character: split on it too, or a CRLF file would be one line.
        let allLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, line) in allLines.enumerated() {
            let characters = Array(line)
            if value.isOpen {
                value.scan(characters, from: 0)
                continue
            }
            var index = characters.firstIndex { $0 != " " && $0 != "\t" } ?? characters.endIndex
            guard index < characters.endIndex, characters[index] != "#" else { continue }
            if characters[index] == "[" {
                let isArray = index + 1 < characters.endIndex && characters[index + 1] == "["
                index += isArray ? 2 : 1
                guard let (path, _) = Self.key(in: characters, from: index) else { continue }
                table = path
                record(path, line: offset + 1)
                continue
            }
            guard let (path, end) = Self.key(in: characters, from: index), end < characters.endIndex,
                  characters[end] == "=" else { continue }
            record(table + path, line: offset + 1)
            value.scan(characters, from: end + 1)
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
    package static func key(in characters: [Character], from start: Int) -> ([String], Int)? {
        var parts: [String] = []
        var index = start
        func skipSpaces() { while index < characters.endIndex, characters[index] == " " || characters[index] == "\t" { index += 1 } }
        while true {
            skipSpaces()
            guard index < characters.endIndex else { return nil }
            let first = characters[index]
            if first == "\"" || first == "'" {
                var part = ""
                index += 1
                while index < characters.endIndex, characters[index] != first {
                    if first == "\"", characters[index] == "\\", index + 1 < characters.endIndex { index += 1 }
                    part.append(characters[index])
                    index += 1
                }
                guard index < characters.endIndex else { return nil }
                index += 1
                parts.append(part)
            } else {
                let begin = index
                while index < characters.endIndex, characters[index].isBareKeyCharacter { index += 1 }
                guard index > begin else { return nil }
                parts.append(String(characters[begin..<index]))
            }
            skipSpaces()
            guard index < characters.endIndex, characters[index] == "." else { return (parts, index) }
            index += 1
        }
    }
}

/// Follows a value across lines: open multi-line strings, and open brackets and braces.
private struct ValueScanner {
    /// The delimiter of a multi-line string still open (`"""` or `'''`).
    package var openString: String?
    /// Brackets and braces still open.
    package var depth = 0

    /// Whether the value goes on to the next line.
    package var isOpen: Bool { openString != nil || depth > 0 }

    package mutating func scan(_ characters: [Character], from start: Int) {
        var index = start
        while index < characters.endIndex {
            if let delimiter = openString {
                guard let end = find(delimiter, in: characters, from: index) else { return }
                openString = nil
                index = end + 3
                continue
            }
            let character = characters[index]
            switch character {
            case "#":
                return
            case "\"", "'":
                if starts(with: character, count: 3, in: characters, at: index) {
                    let triple = String(repeating: character, count: 3)
                    openString = triple
                    index += 3
                    continue
                }
                index += 1
                while index < characters.endIndex, characters[index] != character {
                    if character == "\"", characters[index] == "\\" { index += 1 }
                    index += 1
                }
                index += 1
            case "[", "{":
                depth += 1
                index += 1
            case "]", "}":
                depth = max(0, depth - 1)
                index += 1
            default:
                index += 1
            }
        }
    }

    /// Whether `count` copies of `character` start at `index` (a look there only: searching
    /// the rest of the line at every quote made a line of quotes take quadratic time).
    private func starts(with character: Character, count: Int, in characters: [Character], at index: Int) -> Bool {
        index + count <= characters.count && characters[index..<index + count].allSatisfy { $0 == character }
    }

    private func find(_ delimiter: String, in characters: [Character], from start: Int) -> Int? {
        let pattern = Array(delimiter)
        guard characters.count >= pattern.count else { return nil }
        var index = start
        while index + pattern.count <= characters.count {
            if Array(characters[index..<index + pattern.count]) == pattern { return index }
            index += 1
        }
        return nil
    }
}

private extension Character {
    /// What a bare TOML key is made of.
    var isBareKeyCharacter: Bool {
        isASCII && (isLetter || isNumber || self == "_" || self == "-")
    }
}
