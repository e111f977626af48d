/// Which tool printed a block.
enum BlockFormat: Sendable {
    /// `pactl list` (headings such as `Sink #3`, fields such as `Name: x`).
    case pactl
    /// `pacmd list-*` (`index: 3`, `name: <x>`).
    case pacmd
    /// `pw-cli ls`, `pw-cli info`, `wpctl inspect` (`id 28, type PipeWire:Interface:Node`).
    case pipeWire
}

/// What a block was announced as, before its contents are looked at.
enum DeclaredKind: Sendable, Equatable {
    case sink, source, card
    /// A PipeWire node.
    case node
    /// Announced as something RouteKit does not read (a module, a client, a PipeWire port...).
    case skipped
    /// Not announced (no heading, an unknown heading word): the contents decide.
    case unknown
}

/// A `label: value` line of a block.
struct RawField: Sendable {
    /// The label as printed.
    var label: String
    /// What the label means, when the vocabulary knows it.
    var concept: FieldConcept?
    /// The value as printed.
    var value: String
    /// Its line in the input.
    var line: Int
}

/// A port or profile line of a block, with what is nested under it.
struct RawEntry: Sendable {
    /// The name, before the first `: `.
    var name: String
    /// The description, between the name and the attribute parentheses.
    var description: String
    /// The contents of the final parentheses, nil when there were none.
    var attributes: String?
    /// A port's own property list.
    var properties: [String: String] = [:]
    /// The profiles a card port is part of.
    var profileNames: [String] = []
    /// Its line in the input.
    var line: Int
}

/// One device block of a text dump as read, before it becomes a sink, source, card or node.
struct RawBlock: Sendable {
    /// The tool that printed it.
    var format: BlockFormat
    /// What it was announced as.
    var declaredKind: DeclaredKind
    /// The heading as written (`Sink #3`), for messages.
    var heading: String?
    /// The heading's word, lowercased (`sink`, `ziel`), for grouping unknown words.
    var headingWord: String?
    /// The index the heading, `index:` line or `id` line gave.
    var index: UInt32?
    /// The line it starts on.
    var line: Int
    /// Its `label: value` lines, in order.
    var fields: [RawField] = []
    /// Its property list.
    var properties: [String: String] = [:]
    /// Its ports, in order.
    var ports: [RawEntry] = []
    /// A card's profiles, in order.
    var profiles: [RawEntry] = []

    /// Whether anything but the heading was read.
    var hasContent: Bool {
        !fields.isEmpty || !properties.isEmpty || !ports.isEmpty || !profiles.isEmpty
    }

    /// The value of the first field with `concept`.
    func value(of concept: FieldConcept) -> String? {
        fields.first { $0.concept == concept }?.value
    }
}
