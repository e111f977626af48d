import PulseAudio

/// What a pasted dump of a sound server says: its cards, sinks, sources, other PipeWire nodes
/// and defaults, as RouteKit's values. It lets `routectl list --from-dump` show the devices of a
/// machine from a bug report, and the classifier be tested on real machines.
///
/// ``parse(_:)`` reads, from one text, any mix of:
/// - `pactl list` (`cards`, `sinks`, `sources`, or all, other blocks skipped) of any PulseAudio
///   version from 0.9 to 17 and of pipewire-pulse, in any language PulseAudio is translated to
///   (the labels of every translation are known; for others, the structure and the property
///   keys, which are never translated, decide);
/// - `pacmd list-cards`, `list-sinks`, `list-sources` and `pacmd info`;
/// - `pactl info` and `pacmd info` default lines;
/// - `wpctl inspect`, `pw-cli ls Node`, `pw-cli info`;
/// - JSON: `pw-dump` (cut off too; devices become cards whose routes are their nodes' ports),
///   node property objects, `pactl --format=json`.
///
/// Pastes are taken as they come: tabs or spaces, Markdown or e-mail indentation, long lines
/// wrapped by an e-mail client, `# ` comment lines (such as the corpus headers), `> ` quote
/// marks, a last block cut off by an excerpt. Values the dump does not show get neutral
/// defaults: an empty volume, state ``DeviceState/unknown``, index ``unknownIndex``.
/// Entities keep dump order; a device pasted twice (two captures) is listed twice, which
/// ``deduplicated()`` undoes.
public struct ServerDump: Sendable, Hashable {
    /// The index given to an entity whose dump shows none (PulseAudio's invalid index).
    public static let unknownIndex: UInt32 = .max

    /// Every card, in dump order.
    public var cards: [CardInfo]
    /// Every sink, in dump order (PipeWire `Audio/Sink` nodes included).
    public var sinks: [SinkInfo]
    /// Every source, in dump order (PipeWire `Audio/Source` nodes included).
    public var sources: [SourceInfo]
    /// PipeWire nodes that are neither sinks nor sources (drivers, MIDI bridge...), as property
    /// lists; `object.id` is added from the node's id when the list lacks it.
    public var otherNodes: [[String: String]]
    /// The default sink, when the dump says it (`pactl info` `Default Sink:`, pw-dump metadata
    /// `default.audio.sink`).
    public var defaultSinkName: String?
    /// The default source, when the dump says it.
    public var defaultSourceName: String?
    /// The default sink the user configured, when the dump says it (pw-dump metadata
    /// `default.configured.audio.sink`).
    public var configuredDefaultSinkName: String?

    /// A dump from its parts.
    public init(cards: [CardInfo] = [], sinks: [SinkInfo] = [], sources: [SourceInfo] = [],
                otherNodes: [[String: String]] = [], defaultSinkName: String? = nil,
                defaultSourceName: String? = nil, configuredDefaultSinkName: String? = nil) {
        self.cards = cards
        self.sinks = sinks
        self.sources = sources
        self.otherNodes = otherNodes
        self.defaultSinkName = defaultSinkName
        self.defaultSourceName = defaultSourceName
        self.configuredDefaultSinkName = configuredDefaultSinkName
    }

    /// Whether it holds no card, sink, source or node.
    public var isEmpty: Bool {
        cards.isEmpty && sinks.isEmpty && sources.isEmpty && otherNodes.isEmpty
    }

    /// Reads a dump.
    /// - Throws: a ``DumpParseError`` naming the line: a sink, source or card without a name, a
    ///   property whose quote never closes, an index out of range, or nothing recognisable at all.
    public static func parse(_ text: String) throws(DumpParseError) -> ServerDump {
        var dump = ServerDump()
        var lines = DumpLine.lines(of: text)
        if JSONDumpReader.looksLikeJSON(lines) {
            let found = JSONDumpReader.read(text)
            dump = found.dump
            lines.removeAll { found.coveredLines.contains($0.number) }
        }
        try TextDumpAssembler.assemble(TextScanner.scan(WrappedLines.join(lines)), into: &dump)
        guard !dump.isEmpty else {
            throw DumpParseError(line: 1, message: "no cards, sinks, sources or nodes found")
        }
        CardAttribution.attribute(&dump)
        PortlessCardPorts.lift(&dump)
        return dump
    }

    /// The dump with each card, sink and source listed once, at its last listing: what a paste
    /// of several captures of one machine ends with (two `pactl list` runs, or `pactl list` then
    /// `pacmd list-sinks` of the same sinks), so that each device is shown once.
    ///
    /// A sink or source keeps its card: its `Card:` index, which named a card of its own capture,
    /// is pointed at the card of that name that is kept (captures may number cards differently).
    public func deduplicated() -> ServerDump {
        var result = self
        result.cards = Self.lastOfEach(cards, by: \.name)
        let keptIndexByName = Dictionary(result.cards.map { ($0.name, $0.index) }, uniquingKeysWith: { _, last in last })
        let namesByIndex = Dictionary(grouping: cards, by: \.index).mapValues { Set($0.map(\.name)) }
        func keptCard(for index: UInt32?) -> UInt32? {
            // An index that named two different cards (numbering changed between captures)
            // says nothing: the sink keeps it, and card attribution by name decides.
            guard let index, let names = namesByIndex[index], names.count == 1, let name = names.first else { return index }
            return keptIndexByName[name] ?? index
        }
        result.sinks = Self.lastOfEach(sinks, by: \.name).map { sink in
            var sink = sink
            sink.card = keptCard(for: sink.card)
            return sink
        }
        result.sources = Self.lastOfEach(sources, by: \.name).map { source in
            var source = source
            source.card = keptCard(for: source.card)
            return source
        }
        return result
    }

    private static func lastOfEach<Value>(_ values: [Value], by name: (Value) -> String) -> [Value] {
        var seen: Set<String> = []
        return values.reversed().filter { seen.insert(name($0)).inserted }.reversed()
    }
}
