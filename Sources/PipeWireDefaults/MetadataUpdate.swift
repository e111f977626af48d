/// `update: id:<subject> key:'<key>' value:'<value>' type:'<type>'`, as pw-metadata prints it.
/// Values are printed unescaped, so the value runs to the last `' type:'` of the line.
struct MetadataUpdate {
    var subject: UInt32
    var key: String
    var value: String
    var type: String

    init(line: String) throws(PipeWireConfiguredDefaults.Failure) {
        func malformed(_ reason: String) -> PipeWireConfiguredDefaults.Failure {
            .unparseable(line: line, reason: "not an update line of the form update: id:N key:'…' value:'…' type:'…' (\(reason))")
        }
        guard line.hasPrefix("update: id:"),
              let keyStart = line.firstRange(of: " key:'") else { throw malformed("no id or key") }
        let idText = line[line.index(line.startIndex, offsetBy: "update: id:".count)..<keyStart.lowerBound]
        guard let subject = UInt32(idText) else { throw malformed("the id is not a number") }
        guard let keyEnd = line[keyStart.upperBound...].firstRange(of: "' value:'") else {
            throw malformed("no value")
        }
        guard let typeStart = Self.lastRange(of: "' type:'", in: line[keyEnd.upperBound...]),
              line.hasSuffix("'"), typeStart.upperBound < line.endIndex else {
            throw malformed("no type")
        }
        self.subject = subject
        key = String(line[keyStart.upperBound..<keyEnd.lowerBound])
        value = String(line[keyEnd.upperBound..<typeStart.lowerBound])
        type = String(line[typeStart.upperBound..<line.index(before: line.endIndex)])
    }

    /// Where `pattern` last starts in `text`, searching backwards (so an occurrence that
    /// overlaps an earlier one counts, as in `' type:' type:'`).
    private static func lastRange(of pattern: String, in text: Substring) -> Range<String.Index>? {
        var start = text.endIndex
        while start > text.startIndex {
            start = text.index(before: start)
            if text[start...].hasPrefix(pattern) { return start..<text.index(start, offsetBy: pattern.count) }
        }
        return nil
    }
}
