import PulseAudio
import TextSupport

/// Finds the JSON in a dump and reads what it holds: `pw-dump` objects (nodes, devices, the
/// default metadata), node property objects as other tools print them (Quickshell's `PwNode`,
/// a bare `{"media.class": ...}`), and `pactl --format=json` output.
struct JSONDumpReader {
    /// What the JSON of a dump held.
    struct Result: Sendable {
        /// Its entities and defaults.
        var dump: ServerDump
        /// The lines the JSON took, which the text reader must leave alone.
        var coveredLines: Set<Int>
    }

    /// What was read so far.
    private var dump = ServerDump()
    /// `pw-dump` audio devices, which give the cards and their nodes' ports.
    private var devices: [PipeWireDevice] = []
    /// `pw-dump` nodes, kept until the devices are known.
    private var nodes: [DumpNode] = []

    /// Whether the text holds JSON: it starts with `{`, `[` alone or `[{`, or has `"key": value` lines.
    static func looksLikeJSON(_ lines: [DumpLine]) -> Bool {
        if let first = lines.first?.text {
            if first.hasPrefix("{") { return true }
            if first.hasPrefix("["), first.dropFirst().trimmingWhitespace().isEmpty
                || first.dropFirst().trimmingWhitespace().hasPrefix("{") {
                return true
            }
        }
        var memberLines = 0
        for line in lines where line.text.first == "\"" {
            if let close = line.text.dropFirst().firstIndex(of: "\""),
               line.text[line.text.index(after: close)...].trimmingWhitespace().first == ":" {
                memberLines += 1
                if memberLines >= 2 { return true }
            }
        }
        return false
    }

    /// Reads every JSON object and array of `text`.
    static func read(_ text: String) -> Result {
        let bytes = Array(text.utf8)
        let lineStarts = lineStarts(of: bytes)
        var reader = JSONDumpReader()
        var covered: Set<Int> = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position = endOfString(bytes, from: position)
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                var parser = LenientJSONParser(bytes, at: position)
                if let value = parser.value(), parser.position > position, value.containsObject {
                    reader.visit(value)
                    let first = line(of: position, in: lineStarts)
                    let last = line(of: max(parser.position - 1, position), in: lineStarts)
                    covered.formUnion(first...last)
                    position = parser.position
                    continue
                }
                // What the parser read holds no object, and nothing inside it can: go on after
                // it rather than read it again from the next bracket (which made `[[[[...`
                // quadratic).
                position = max(position + 1, parser.position)
                continue
            }
            position += 1
        }
        reader.finish()
        return Result(dump: reader.dump, coveredLines: covered)
    }

    /// Reads one value and what it contains.
    private mutating func visit(_ value: JSONValue) {
        if let elements = value.array {
            elements.forEach { visit($0) }
            return
        }
        guard let members = value.members else { return }
        if let type = value["type"]?.string, type.hasPrefix("PipeWire:Interface:") {
            readPipeWireObject(value, type: type)
            return
        }
        if PactlJSON.read(value, into: &dump) {
            return
        }
        if let node = Self.propertyNode(value) {
            nodes.append(node)
            return
        }
        members.forEach { visit($0.value) }
    }

    /// A `pw-dump` object: a node, a device or the default metadata; other types are skipped.
    private mutating func readPipeWireObject(_ object: JSONValue, type: String) {
        if type.hasPrefix("PipeWire:Interface:Node") {
            nodes.append(PipeWireObjects.node(object))
        } else if type.hasPrefix("PipeWire:Interface:Device") {
            if let device = PipeWireDevice(object) {
                devices.append(device)
            }
        } else if type.hasPrefix("PipeWire:Interface:Metadata") {
            PipeWireObjects.readDefaults(object, into: &dump)
        }
    }

    /// A node given as its property object: the object itself (`{"media.class": ...}`) or its
    /// `properties` / `props` member, with `id`, `name`, `description` and `audio.muted` beside it.
    private static func propertyNode(_ object: JSONValue) -> DumpNode? {
        for candidate in [object["properties"], object["props"], object] {
            guard let candidate, let members = candidate.members,
                  members.contains(where: { $0.key == "media.class" || $0.key == "node.name" }) else { continue }
            return DumpNode(id: object["id"]?.integer.flatMap { UInt32(exactly: $0) },
                            properties: PipeWireObjects.properties(candidate),
                            name: object["name"]?.string, description: object["description"]?.string,
                            isMuted: object["audio"]?["muted"]?.bool)
        }
        return nil
    }

    /// Turns the nodes and devices read into the dump's values.
    private mutating func finish() {
        dump.cards += devices.map(\.card)
        for node in nodes {
            switch NodeBuilder.build(node) {
            case .sink(var sink):
                PipeWireDevice.attachRoutes(to: &sink.ports, active: &sink.activePortName, of: node, devices: devices)
                dump.sinks.append(sink)
            case .source(var source):
                PipeWireDevice.attachRoutes(to: &source.ports, active: &source.activePortName, of: node, devices: devices)
                dump.sources.append(source)
            case .other(let properties):
                dump.otherNodes.append(properties)
            }
        }
    }

    /// The offset each line starts at (lines end at LF, CR LF or CR, as the text reader counts).
    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for position in bytes.indices {
            let byte = bytes[position]
            if byte == 10 || (byte == 13 && (position + 1 == bytes.count || bytes[position + 1] != 10)) {
                starts.append(position + 1)
            }
        }
        return starts
    }

    /// The 1-based line of `offset`.
    private static func line(of offset: Int, in starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The offset after the string that starts at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start + 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): return position + 1
            case 10: return position + 1
            default: position += 1
            }
        }
        return position
    }
}
