import TextSupport
/// What one line of a text dump is, judged by its shape alone.
enum LineShape: Equatable {
    /// A `pactl` block heading in any language: `Sink #3`, `Karte #0`, `Аудиоприёмник №1`,
    /// `Cíl č. 2`, `0. nyelő`, `*** Sink #0 ***` (PulseAudio 0.9).
    case heading(word: String, index: UInt32)
    /// A `pacmd` list header: `3 sink(s) available.`; `kind` is `sink`, `card`, `module`...
    case listHeader(kind: String)
    /// A `pacmd` block start: `index: 3`, `* index: 3`.
    case pacmdIndex(UInt32)
    /// A PipeWire object line of `pw-cli ls` or `wpctl inspect`: `id 28, type PipeWire:Interface:Node/3`.
    case pipeWireObject(id: UInt32, type: String)
    /// A property, `key = "value"`.
    case property(key: String, value: String)
    /// A label with nothing after it: `Ports:`, `properties:`, `Eigenschaften:`, `端口：`.
    case sectionHeader(label: String)
    /// A label and a value: `Name: foo`, `Nom : foo`, `名称：foo`, `analog-output: Analog Output (...)`.
    case field(label: String, value: String)
    /// Anything else: continuation text, `pcm`, `balance 0.00`, `...`.
    case other

    /// The shape of `line`.
    /// - Throws: a ``DumpParseError`` for a property whose quote never closes or a heading whose
    ///   number does not fit an index.
    static func of(_ line: DumpLine) throws(DumpParseError) -> LineShape {
        let text = line.text
        if let property = PropertyLine.match(text) {
            switch property {
            case .property(let key, let value):
                return .property(key: key, value: value)
            case .unterminated(let key):
                throw DumpParseError(line: line.number, message: "the value of property '\(key)' has no closing quote")
            }
        }
        if let object = pipeWireObject(text) {
            return object
        }
        if let index = pacmdIndex(text) {
            return .pacmdIndex(index)
        }
        if let kind = listHeader(text) {
            return .listHeader(kind: kind)
        }
        if let heading = try HeadingLine.parse(text, line: line.number) {
            return .heading(word: heading.word, index: heading.index)
        }
        if let (label, value) = labelAndValue(text) {
            return value.isEmpty ? .sectionHeader(label: label) : .field(label: label, value: value)
        }
        return .other
    }

    /// `label: value` split at the first `: `, `:` at the end or full-width `：`, when the label
    /// looks like one (not empty, not a number, no quotes or `=`).
    static func labelAndValue(_ text: String) -> (String, String)? {
        let split: (labelEnd: Int, valueStart: Int)? = text.withUTF8Bytes { bytes in
            var position = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "="):
                    return nil
                case UInt8(ascii: ":"):
                    if position + 1 == bytes.count { return (position, position + 1) }
                    if bytes[position + 1] == 32 || bytes[position + 1] == 9 { return (position, position + 2) }
                case 0xEF where position + 2 < bytes.count && bytes[position + 1] == 0xBC && bytes[position + 2] == 0x9A:
                    return (position, position + 3)
                default:
                    break
                }
                position += 1
            }
            return nil
        }
        guard let split, split.labelEnd > 0, split.labelEnd <= 160 else { return nil }
        let utf8 = text.utf8
        let labelEnd = utf8.index(utf8.startIndex, offsetBy: split.labelEnd)
        let valueStart = utf8.index(labelEnd, offsetBy: split.valueStart - split.labelEnd)
        let label = text[..<labelEnd].trimmingWhitespace()
        guard let first = label.first, !first.isNumber else { return nil }
        return (String(label), String(text[valueStart...].trimmingWhitespace()))
    }

    /// `id 28, type PipeWire:Interface:Node/3` (pw-cli ls) or `id 218, type PipeWire:Interface:Node` (wpctl).
    private static func pipeWireObject(_ text: String) -> LineShape? {
        guard text.hasPrefix("id "), let (idText, rest) = text.dropFirst(3).split(atFirst: ",") else {
            return nil
        }
        guard let id = UInt32(idText), rest.hasPrefix("type ") else { return nil }
        let type = rest.dropFirst(5).trimmingWhitespace()
        guard type.hasPrefix("PipeWire:") else { return nil }
        return .pipeWireObject(id: id, type: String(type))
    }

    /// `index: 3` or `* index: 3`.
    private static func pacmdIndex(_ text: String) -> UInt32? {
        var body = Substring(text)
        if body.first == "*" {
            body = body.dropFirst().trimmingWhitespace()
        }
        guard body.hasPrefix("index:") else { return nil }
        return UInt32(body.dropFirst(6).trimmingWhitespace())
    }

    /// `3 sink(s) available.`, `25 module(s) loaded.`, `4 client(s) logged in.` → `sink`, `module`, `client`.
    private static func listHeader(_ text: String) -> String? {
        guard let first = text.first, first.isASCII, first.isNumber,
              let (count, rest) = Substring(text).split(atFirst: " "), count.isASCIIDigits,
              let marker = rest.byteRange(of: "(s) ") else { return nil }
        return String(rest[..<marker.lowerBound]).lowercased()
    }
}
