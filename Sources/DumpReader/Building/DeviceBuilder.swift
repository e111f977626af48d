import PulseAudio

/// Builds sinks, sources and cards from `pactl` and `pacmd` blocks.
enum DeviceBuilder {
    /// A sink, and the index of its monitor source when the dump gives an index rather than a
    /// name (resolved to a name once every source is read).
    static func sink(_ block: RawBlock, _ fields: BlockFields) throws(DumpParseError) -> (SinkInfo, monitorIndex: UInt32?)? {
        guard let name = try name(block, fields) else { return nil }
        let monitorIndex = monitorIndex(fields.monitorSource, block)
        let sink = SinkInfo(
            index: block.index ?? ServerDump.unknownIndex, name: name, description: description(block, fields),
            driver: fields.driver ?? "", ownerModule: DumpValues.index(fields.ownerModule),
            card: DumpValues.index(fields.card), isMuted: fields.mute.flatMap(PactlVocabulary.yesNo) ?? false,
            volume: DumpValues.volume(fields.volume), baseVolume: baseVolume(fields),
            monitorSourceName: monitorIndex == nil ? DumpValues.name(fields.monitorSource) : nil,
            state: DumpValues.state(fields.state),
            ports: block.ports.map(EntryValues.devicePort), activePortName: DumpValues.name(fields.activePort),
            properties: block.properties)
        return (sink, monitorIndex)
    }

    /// A source, and the index of the sink it monitors when the dump gives an index rather than a
    /// name (resolved to a name once every sink is read).
    static func source(_ block: RawBlock, _ fields: BlockFields) throws(DumpParseError) -> (SourceInfo, monitorOfIndex: UInt32?)? {
        guard let name = try name(block, fields) else { return nil }
        let monitoredIndex = monitorIndex(fields.monitorOfSink, block)
        let source = SourceInfo(
            index: block.index ?? ServerDump.unknownIndex, name: name, description: description(block, fields),
            driver: fields.driver ?? "", ownerModule: DumpValues.index(fields.ownerModule),
            card: DumpValues.index(fields.card), isMuted: fields.mute.flatMap(PactlVocabulary.yesNo) ?? false,
            volume: DumpValues.volume(fields.volume), baseVolume: baseVolume(fields),
            monitorOfSinkName: monitoredIndex == nil ? monitoredSinkName(name, fields) : nil,
            state: DumpValues.state(fields.state),
            ports: block.ports.map(EntryValues.devicePort), activePortName: DumpValues.name(fields.activePort),
            properties: block.properties)
        return (source, monitoredIndex)
    }

    /// The sink a source monitors. A source pasted without its monitor field (an excerpt cut
    /// before it) and without ports, whose name is `<sink>.monitor`, monitors that sink:
    /// PulseAudio and pipewire-pulse give every monitor that name and no other source. A printed
    /// field (`n/a` for a source that monitors nothing) is taken as it is.
    private static func monitoredSinkName(_ name: String, _ fields: BlockFields) -> String? {
        guard fields.monitorOfSink == nil else { return DumpValues.name(fields.monitorOfSink) }
        let suffix = ".monitor"
        guard name.hasSuffix(suffix), name.count > suffix.count, fields.activePort == nil else { return nil }
        return String(name.dropLast(suffix.count))
    }

    /// A card. A card pasted without heading and name (a hand-trimmed excerpt) gets an empty name.
    static func card(_ block: RawBlock, _ fields: BlockFields) throws(DumpParseError) -> CardInfo? {
        let name = try name(block, fields) ?? ""
        return CardInfo(index: block.index ?? ServerDump.unknownIndex, name: name, driver: fields.driver ?? "",
                        ownerModule: DumpValues.index(fields.ownerModule),
                        profiles: block.profiles.map(EntryValues.profile),
                        activeProfileName: DumpValues.name(fields.activeProfile),
                        ports: block.ports.map(EntryValues.cardPort), properties: block.properties)
    }

    /// The index a monitor field gives instead of a name (`pacmd`, PulseAudio 0.9 `pactl`).
    private static func monitorIndex(_ value: String?, _ block: RawBlock) -> UInt32? {
        guard let value, block.format == .pacmd || value.isASCIIDigits else { return nil }
        return DumpValues.index(value)
    }

    /// The block's name; for a block without heading or name, the one its properties give, if any.
    /// - Throws: a ``DumpParseError`` when a block with a heading has contents but no name.
    private static func name(_ block: RawBlock, _ fields: BlockFields) throws(DumpParseError) -> String? {
        if let name = fields.name, !name.isEmpty {
            return name
        }
        guard let heading = block.heading, block.hasContent else { return BlockKinds.propertyName(block) }
        throw DumpParseError(line: block.line, message: "\(heading) has no name")
    }

    /// The printed description, else the one in the property list (`pacmd` prints none).
    private static func description(_ block: RawBlock, _ fields: BlockFields) -> String {
        fields.description ?? block.properties["device.description"] ?? block.properties["node.description"] ?? ""
    }

    /// The base volume, 100 % when not printed.
    private static func baseVolume(_ fields: BlockFields) -> UInt32 {
        DumpValues.volume(fields.baseVolume).values.first ?? ChannelVolumes.normal
    }
}
