import PulseAudio

/// Turns the blocks of a text dump into sinks, sources, cards and nodes.
enum TextDumpAssembler {
    /// Adds what `scan` holds to `dump`.
    /// - Throws: a ``DumpParseError`` for a sink, source or card block without a name, unless it
    ///   is the last block: an excerpt cut off inside its last block keeps the blocks before.
    static func assemble(_ scan: TextScan, into dump: inout ServerDump) throws(DumpParseError) {
        let fields = scan.blocks.map(BlockFields.init)
        let kinds = BlockKinds.resolve(scan.blocks, fields: fields)
        var sinkMonitors: [(sink: Int, source: UInt32)] = []
        var sourceMonitors: [(source: Int, sink: UInt32)] = []
        var sinks: [SinkInfo] = []
        var sources: [SourceInfo] = []
        for position in scan.blocks.indices {
            let block = scan.blocks[position]
            let isLast = position == scan.blocks.count - 1
            switch kinds[position] {
            case .sink:
                guard let (sink, monitor) = try unlessCut(isLast, { () throws(DumpParseError) in
                    try DeviceBuilder.sink(block, fields[position])
                }) else { continue }
                if let monitor { sinkMonitors.append((sinks.count, monitor)) }
                sinks.append(sink)
            case .source:
                guard let (source, monitored) = try unlessCut(isLast, { () throws(DumpParseError) in
                    try DeviceBuilder.source(block, fields[position])
                }) else { continue }
                if let monitored { sourceMonitors.append((sources.count, monitored)) }
                sources.append(source)
            case .card:
                if let card = try unlessCut(isLast, { () throws(DumpParseError) in
                    try DeviceBuilder.card(block, fields[position])
                }) {
                    dump.cards.append(card)
                }
            case .node:
                switch NodeBuilder.build(node(block)) {
                case .sink(let sink): sinks.append(sink)
                case .source(let source): sources.append(source)
                case .other(let properties): dump.otherNodes.append(properties)
                }
            case .ignored:
                continue
            }
        }
        resolveMonitors(sinkMonitors, sourceMonitors, sinks: &sinks, sources: &sources)
        dump.sinks += sinks
        dump.sources += sources
        dump.defaultSinkName = scan.defaultSinkName ?? dump.defaultSinkName
        dump.defaultSourceName = scan.defaultSourceName ?? dump.defaultSourceName
    }

    /// What `build` makes; for the last block, nil rather than an error (the paste was cut in it).
    private static func unlessCut<Value>(_ isLast: Bool, _ build: () throws(DumpParseError) -> Value?)
        throws(DumpParseError) -> Value? {
        do {
            return try build()
        } catch {
            if isLast { return nil }
            throw error
        }
    }

    /// Names the monitors that `pacmd` (and PulseAudio 0.9) give as indices. A monitor source
    /// whose sink is not in the dump is still a monitor: it names the sink its own name implies
    /// (`x.monitor` → `x`), else an empty name.
    private static func resolveMonitors(_ sinkMonitors: [(sink: Int, source: UInt32)],
                                        _ sourceMonitors: [(source: Int, sink: UInt32)],
                                        sinks: inout [SinkInfo], sources: inout [SourceInfo]) {
        let sourceNames = Dictionary(sources.map { ($0.index, $0.name) }) { first, _ in first }
        let sinkNames = Dictionary(sinks.map { ($0.index, $0.name) }) { first, _ in first }
        for (sink, index) in sinkMonitors {
            sinks[sink].monitorSourceName = sourceNames[index]
        }
        for (source, index) in sourceMonitors {
            let name = sources[source].name
            sources[source].monitorOfSinkName = sinkNames[index]
                ?? (name.hasSuffix(".monitor") ? String(name.dropLast(8)) : "")
        }
    }

    /// The node a `pw-cli` or `wpctl` block describes.
    private static func node(_ block: RawBlock) -> DumpNode {
        let state = block.value(of: .state).map { String($0.filter { $0 != "\"" }) }
        return DumpNode(id: block.index, properties: block.properties, state: state)
    }
}
