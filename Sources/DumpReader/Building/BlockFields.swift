/// The fields of a block by meaning. Labels the vocabulary knows come first; the rest is placed
/// by structure, so that a `pactl` in a language the vocabulary lacks still reads: the name is
/// the first field after the state (or the field that equals `node.name`), the active port the
/// field naming one of the ports, the monitor the field naming `<name>.monitor`, and so on.
struct BlockFields: Sendable {
    var name: String?
    var description: String?
    var driver: String?
    var state: String?
    var ownerModule: String?
    var card: String?
    var mute: String?
    var volume: String?
    var baseVolume: String?
    var monitorSource: String?
    var monitorOfSink: String?
    var activePort: String?
    var activeProfile: String?

    /// The fields of `block`.
    init(_ block: RawBlock) {
        let values = block.fields.map { field in
            block.format == .pacmd ? String(Substring(field.value).withoutAngleBrackets) : field.value
        }
        var unplaced: [Int] = []
        for (position, field) in block.fields.enumerated() {
            if let concept = field.concept {
                set(concept, to: values[position])
            } else {
                unplaced.append(position)
            }
        }
        if block.format == .pactl {
            placeByStructure(unplaced, values: values, block: block)
        }
    }

    /// Sets the value of `concept` unless it is set already.
    private mutating func set(_ concept: FieldConcept, to value: String) {
        let path: WritableKeyPath<BlockFields, String?>
        switch concept {
        case .name: path = \.name
        case .description: path = \.description
        case .driver: path = \.driver
        case .state: path = \.state
        case .ownerModule: path = \.ownerModule
        case .card: path = \.card
        case .mute: path = \.mute
        case .volume: path = \.volume
        case .baseVolume: path = \.baseVolume
        case .monitorSource: path = \.monitorSource
        case .monitorOfSink: path = \.monitorOfSink
        case .activePort: path = \.activePort
        case .activeProfile: path = \.activeProfile
        default: return
        }
        if self[keyPath: path] == nil {
            self[keyPath: path] = value
        }
    }

    /// Places the fields of a `pactl` block whose labels are unknown, by their values and positions.
    private mutating func placeByStructure(_ unplaced: [Int], values: [String], block: RawBlock) {
        guard !unplaced.isEmpty else { return }
        var remaining = unplaced
        func take(_ matches: (String) -> Bool) -> (position: Int, value: String)? {
            guard let slot = remaining.firstIndex(where: { matches(values[$0]) }) else { return nil }
            let position = remaining.remove(at: slot)
            return (position, values[position])
        }
        if state == nil {
            state = take(DumpValues.isState)?.value
        }
        var namePosition: Int?
        if name == nil {
            let known = block.properties["node.name"] ?? block.properties["device.name"]
            let found = known.flatMap { known in take { $0 == known } }
                ?? remaining.first.flatMap { first in
                    values[first].contains(where: \.isWhitespace) ? nil : take { $0 == values[first] }
                }
            name = found?.value
            namePosition = found?.position
        }
        // Sinks and sources print Name, Description, Driver; cards (the blocks with profiles)
        // print Name, Driver.
        var previous = namePosition
        if description == nil, block.profiles.isEmpty, let namePosition, remaining.first == namePosition + 1 {
            previous = take { $0 == values[namePosition + 1] }?.position
            description = previous.map { values[$0] }
        }
        if driver == nil, let previous, remaining.first == previous + 1 {
            driver = take { $0 == values[previous + 1] }?.value
        }
        if mute == nil {
            mute = take { PactlVocabulary.yesNo($0) != nil }?.value
        }
        if volume == nil {
            volume = take(DumpValues.isVolume)?.value
        }
        if baseVolume == nil {
            baseVolume = take(DumpValues.isVolume)?.value
        }
        if let name {
            if monitorSource == nil {
                monitorSource = take { $0 == name + ".monitor" }?.value
            }
            if monitorOfSink == nil {
                monitorOfSink = take { $0 + ".monitor" == name }?.value
            }
        }
        let portNames = Set(block.ports.map(\.name))
        if activePort == nil, !portNames.isEmpty {
            activePort = take(portNames.contains)?.value
        }
        let profileNames = Set(block.profiles.map(\.name))
        if activeProfile == nil, !profileNames.isEmpty {
            activeProfile = take(profileNames.contains)?.value
        }
        if ownerModule == nil {
            ownerModule = take { $0.isASCIIDigits }?.value
        }
    }
}
