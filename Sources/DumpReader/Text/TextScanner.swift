/// What the text part of a dump holds: its device blocks and the defaults it states.
struct TextScan: Sendable {
    /// Every block read, in order (skipped kinds left out).
    var blocks: [RawBlock] = []
    /// `Default Sink:` of `pactl info`, `Default sink name:` of `pacmd info`.
    var defaultSinkName: String?
    /// `Default Source:` of `pactl info`, `Default source name:` of `pacmd info`.
    var defaultSourceName: String?
}

/// Reads the lines of a text dump into blocks, one line at a time: headings, `index:` and
/// `id N, type ...` lines start blocks; a block's lines are fields, properties and sections
/// (properties, ports, profiles). Indentation says where a section ends when the paste kept
/// it; when it did not (an e-mail client flattened it), the shape of each line does.
struct TextScanner {
    /// The result so far.
    var scan = TextScan()
    /// The block being read.
    var block: RawBlock?
    /// The indentation of the block's heading and of its first field.
    var blockIndents: (heading: Int, field: Int?) = (0, nil)
    /// The section being read in the block.
    var section: OpenSection?
    /// What the last `pacmd` list header announced (`3 sink(s) available.`).
    var listKind: DeclaredKind?
    /// The field the previous line set, which an unshaped line may continue.
    var continuableField: (index: Int, indent: Int)?

    /// Reads `lines`.
    /// - Throws: a ``DumpParseError`` for a malformed property or heading.
    static func scan(_ lines: [DumpLine]) throws(DumpParseError) -> TextScan {
        var scanner = TextScanner()
        var position = 0
        while position < lines.count {
            let line = lines[position]
            position += 1
            let shape = try LineShape.of(line)
            if let type = pipeWireInfoType(shape, lines: lines, after: position),
               case .field(_, let value) = shape, let id = UInt32(value) {
                scanner.start(RawBlock(format: .pipeWire, declaredKind: nodeKind(type), heading: line.text,
                                       index: id, line: line.number), at: line)
                continue
            }
            scanner.read(line, shape: shape)
        }
        scanner.finishBlock()
        return scanner.scan
    }

    /// Handles one line.
    mutating func read(_ line: DumpLine, shape: LineShape) {
        let continuable = continuableField
        continuableField = nil
        switch shape {
        case .heading(let word, let index):
            let kind: DeclaredKind = switch PactlVocabulary.heading(word) {
            case .sink?: .sink
            case .source?: .source
            case .card?: .card
            case .other?: .skipped
            case nil: .unknown
            }
            start(RawBlock(format: .pactl, declaredKind: kind, heading: line.text, headingWord: word,
                           index: index, line: line.number), at: line)
        case .listHeader(let kind):
            finishBlock()
            listKind = switch kind {
            case "sink": .sink
            case "source": .source
            case "card": .card
            default: .skipped
            }
        case .pacmdIndex(let index):
            let kind = listKind ?? .unknown
            let heading = switch kind {
            case .sink: "sink index \(index)"
            case .source: "source index \(index)"
            case .card: "card index \(index)"
            default: "index \(index)"
            }
            start(RawBlock(format: .pacmd, declaredKind: kind, heading: heading, index: index, line: line.number),
                  at: line)
        case .pipeWireObject(let id, let type):
            start(RawBlock(format: .pipeWire, declaredKind: Self.nodeKind(type), heading: line.text,
                           index: id, line: line.number), at: line)
        case .property, .sectionHeader, .field, .other:
            readContent(line, shape: shape, continuing: continuable)
        }
    }

    /// A line that does not start a block.
    private mutating func readContent(_ line: DumpLine, shape: LineShape, continuing: (index: Int, indent: Int)?) {
        if block != nil, let field = blockIndents.field, field > blockIndents.heading,
           line.indent <= blockIndents.heading, block?.heading != nil {
            if let strayed = strayedSection(line, shape: shape, fieldIndent: field) {
                section = strayed
                return
            }
            finishBlock()
        }
        if section != nil, block != nil {
            if takeIntoSection(line, shape: shape) {
                return
            }
            section = nil
        }
        // No copy of the block is bound here: one would share its field strings and make the
        // in-place appends of continuation lines copy them whole.
        guard let declaredKind = block?.declaredKind else {
            readOutsideBlocks(line, shape: shape)
            return
        }
        if declaredKind == .skipped {
            recordDefault(shape)
            return
        }
        readBlockLine(line, shape: shape, continuing: continuing)
    }

    /// A section header a paste pushed left of its block's heading (a forum joined `ports:` to
    /// the line before and put it at column 0), while the block has no such section yet: it
    /// opens that section at the block's field indentation instead of ending the block.
    private func strayedSection(_ line: DumpLine, shape: LineShape, fieldIndent: Int) -> OpenSection? {
        guard line.indent < blockIndents.heading, case .sectionHeader(let label) = shape,
              let kind = OpenSection.Kind(PactlVocabulary.field(label)), let block else { return nil }
        let alreadyRead = switch kind {
        case .ports: !block.ports.isEmpty
        case .profiles: !block.profiles.isEmpty
        case .properties: !block.properties.isEmpty
        case .ignored, .undecided: true
        }
        return alreadyRead ? nil : OpenSection(kind: kind, headerIndent: fieldIndent)
    }

    /// A line between blocks: defaults, or the start of a block whose heading was not pasted.
    private mutating func readOutsideBlocks(_ line: DumpLine, shape: LineShape) {
        if recordDefault(shape) {
            return
        }
        switch shape {
        case .field(let label, let value) where PactlVocabulary.field(label) == .name:
            let format: BlockFormat = value.hasPrefix("<") ? .pacmd : .pactl
            start(RawBlock(format: format, declaredKind: listKind ?? .unknown, line: line.number), at: line)
            readBlockLine(line, shape: shape, continuing: nil)
        case .sectionHeader(let label) where [.profiles, .ports].contains(PactlVocabulary.field(label)):
            start(RawBlock(format: .pactl, declaredKind: .unknown, line: line.number), at: line)
            readBlockLine(line, shape: shape, continuing: nil)
        case .property:
            // A property list pasted alone (the `Properties:` of a card, sink or source, or
            // `wpctl inspect` lines without their `id` line): one block, which the keys it
            // holds (`media.class`, `node.name`, `device.name`) name and place.
            start(RawBlock(format: .pactl, declaredKind: listKind ?? .unknown, line: line.number), at: line)
            readBlockLine(line, shape: shape, continuing: nil)
        default:
            break
        }
    }

    /// A line of the current block, outside its sections.
    private mutating func readBlockLine(_ line: DumpLine, shape: LineShape, continuing: (index: Int, indent: Int)?) {
        guard block != nil else { return }
        if blockIndents.field == nil {
            blockIndents.field = line.indent
        }
        switch shape {
        case .property(let key, let value):
            block?.properties[key] = value
        case .sectionHeader(let label):
            let concept = PactlVocabulary.field(label)
            if let kind = OpenSection.Kind(concept) {
                section = OpenSection(kind: kind, headerIndent: line.indent)
            } else if let concept, concept != .defaultSink, concept != .defaultSource {
                block?.fields.append(RawField(label: label, concept: concept, value: "", line: line.number))
            }
        case .field(let label, let value):
            if recordDefault(shape) {
                return
            }
            let concept = PactlVocabulary.field(label)
            if concept == .name, block?.value(of: .name) != nil, let format = block?.format, format != .pipeWire {
                start(RawBlock(format: format, declaredKind: .unknown, line: line.number), at: line)
            }
            block?.fields.append(RawField(label: label, concept: concept, value: value, line: line.number))
            continuableField = ((block?.fields.count ?? 1) - 1, line.indent)
        case .other:
            if let continuing, line.indent <= continuing.indent, line.text.contains(where: { $0.isLetter || $0.isNumber }),
               block != nil {
                // Appended in place: building a new string per line made a long run of
                // continuation lines quadratic.
                block?.fields[continuing.index].value.append(" ")
                block?.fields[continuing.index].value.append(line.text)
                continuableField = continuing
            }
        case .heading, .listHeader, .pacmdIndex, .pipeWireObject:
            break
        }
    }

    /// Records a default sink or source line; whether `shape` was one.
    @discardableResult
    private mutating func recordDefault(_ shape: LineShape) -> Bool {
        guard case .field(let label, let value) = shape else { return false }
        switch PactlVocabulary.field(label) {
        case .defaultSink?:
            scan.defaultSinkName = value
        case .defaultSource?:
            scan.defaultSourceName = value
        default:
            return false
        }
        return true
    }

    /// Ends the current block and starts `block`.
    private mutating func start(_ newBlock: RawBlock, at line: DumpLine) {
        finishBlock()
        block = newBlock
        blockIndents = (line.indent, nil)
    }

    /// Ends the current block.
    mutating func finishBlock() {
        if let block, block.declaredKind != .skipped {
            scan.blocks.append(block)
        }
        block = nil
        section = nil
        continuableField = nil
    }

    /// A node for a PipeWire node type, skipped for any other object type.
    private static func nodeKind(_ type: String) -> DeclaredKind {
        type.hasPrefix("PipeWire:Interface:Node") ? .node : .skipped
    }

    /// For `pw-cli info`'s `id: 41` line: the object type a `type:` line among the next three
    /// gives, nil when the line is not one.
    private static func pipeWireInfoType(_ shape: LineShape, lines: [DumpLine], after position: Int) -> String? {
        guard case .field(let label, let value) = shape, label == "id", value.isASCIIDigits else { return nil }
        for line in lines[position..<min(position + 3, lines.count)] {
            if let (typeLabel, type) = LineShape.labelAndValue(line.text), typeLabel == "type",
               type.hasPrefix("PipeWire:Interface:") {
                return type
            }
        }
        return nil
    }
}
