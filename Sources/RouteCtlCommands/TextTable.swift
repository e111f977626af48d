import TextSupport

/// Left-aligned columns separated by two spaces, for people reading a terminal. Cells hold
/// what servers and dumps say, so each is escaped (``TerminalText``) before it is laid out.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    func render() -> String {
        let all = ([header] + rows).map { $0.map(TerminalText.escaped) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(to: widths[column])
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
