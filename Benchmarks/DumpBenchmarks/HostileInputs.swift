/// The hostile dump shapes measured, each made at any size.
enum HostileInput: String, CaseIterable {
    /// A `{}` line, then nothing but `[`: made the JSON reader re-parse after every bracket.
    case brackets
    /// One field, then line after line that continues it: made the text reader copy the
    /// growing value for every line.
    case continuationLines = "continuation-lines"
    /// One line with no line break, of letters and colons.
    case oneLongLine = "one-long-line"
    /// A real `pactl list` (corpus file 18), pasted again and again: the size of the
    /// largest honest input.
    case repeatedRealDump = "repeated-real-dump"

    /// About `size` bytes of this shape.
    func text(size: Int, realDump: String) -> String {
        switch self {
        case .brackets:
            return "{}\n" + String(repeating: "[", count: size)
        case .continuationLines:
            let line = "\tmore words of the same field\n"
            return "Sink #0\n\tName: x\n\tDescription: y\n" + String(repeating: line, count: size / line.utf8.count)
        case .oneLongLine:
            return "Name: " + String(repeating: "ab:c ", count: size / 5)
        case .repeatedRealDump:
            return String(repeating: realDump + "\n", count: max(1, size / (realDump.utf8.count + 1)))
        }
    }
}
