/// The word a person most likely meant, for "did you mean" in messages.
package enum Spelling {
    /// The candidate closest to `typed` (ignoring case), when at most two letters off.
    package static func closest(to typed: String, among candidates: [String]) -> String? {
        let folded = typed.lowercased()
        return candidates.map { ($0, distance(folded, $0.lowercased())) }
            .filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, for short words.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
