/// What a block turns out to be.
enum ResolvedKind: Sendable, Equatable {
    case sink, source, card, node
    /// Nothing RouteKit reads (a stream, an unknown block with nothing telling).
    case ignored
}

/// Decides what each block is: its announcement when it has one, else its contents (the
/// property keys, which are never translated, its sections, its name), and for a heading word
/// the vocabulary lacks, what the other blocks with that word turned out to be.
enum BlockKinds {
    /// The kind of each of `blocks`, in order.
    static func resolve(_ blocks: [RawBlock], fields: [BlockFields]) -> [ResolvedKind] {
        var kinds = zip(blocks, fields).map { block, fields -> ResolvedKind? in
            switch block.declaredKind {
            case .sink: .sink
            case .source: .source
            case .card: .card
            case .node: .node
            case .skipped: ResolvedKind.ignored
            case .unknown: infer(block, fields: fields)
            }
        }
        var byWord: [String: [ResolvedKind: Int]] = [:]
        for (block, kind) in zip(blocks, kinds) {
            if let word = block.headingWord, let kind, kind != .ignored {
                byWord[word, default: [:]][kind, default: 0] += 1
            }
        }
        for position in kinds.indices where kinds[position] == nil {
            if let word = blocks[position].headingWord,
               let likeliest = byWord[word]?.max(by: { $0.value < $1.value })?.key {
                kinds[position] = likeliest
            }
        }
        return kinds.map { $0 ?? .ignored }
    }

    /// The kind the contents of a block show, nil when they show none.
    static func infer(_ block: RawBlock, fields: BlockFields) -> ResolvedKind? {
        let properties = block.properties
        if let mediaClass = properties["media.class"] {
            if mediaClass.hasPrefix("Audio/Sink") {
                return properties["device.class"] == "monitor" ? .source : .sink
            }
            if mediaClass.hasPrefix("Audio/Source") { return .source }
            if mediaClass == "Audio/Device" { return .card }
            if mediaClass.hasPrefix("Stream/") { return ResolvedKind.ignored }
        }
        if properties["device.class"] == "monitor" || fields.monitorOfSink != nil {
            return .source
        }
        if !block.profiles.isEmpty || fields.activeProfile != nil {
            return .card
        }
        if fields.monitorSource != nil {
            return .sink
        }
        guard let name = fields.name ?? propertyName(block) else { return nil }
        if name.hasSuffix(".monitor") { return .source }
        for (prefixes, kind) in namePrefixes where prefixes.contains(where: name.hasPrefix) {
            return kind
        }
        return nil
    }

    /// The name a block's own properties give (`node.name` of a sink or source, `device.name`
    /// of a card), for a block pasted without its `Name:` line.
    static func propertyName(_ block: RawBlock) -> String? {
        block.properties["node.name"] ?? block.properties["device.name"]
    }

    /// The name prefixes PulseAudio and PipeWire give their devices.
    private static let namePrefixes: [([String], ResolvedKind)] = [
        (["alsa_output.", "bluez_sink.", "bluez_output."], .sink),
        (["alsa_input.", "bluez_source.", "bluez_input."], .source),
        (["alsa_card.", "bluez_card."], .card),
    ]
}
