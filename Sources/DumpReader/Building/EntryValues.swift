import PulseAudio

/// Turns port and profile lines into PulseAudio's values.
enum EntryValues {
    /// A sink's or source's port.
    static func devicePort(_ entry: RawEntry) -> DevicePort {
        let attributes = EntryAttributes(entry.attributes ?? "", forProfile: false)
        return DevicePort(name: entry.name, description: entry.description, priority: attributes.priority ?? 0,
                          availability: attributes.availability ?? .unknown,
                          type: type(attributes, properties: entry.properties),
                          availabilityGroup: attributes.availabilityGroup ?? entry.properties["port.availability-group"])
    }

    /// A card's port. Its direction is not printed: it comes from the name (`...-output`,
    /// `[In] ...`), else the type, else the profiles it is part of.
    static func cardPort(_ entry: RawEntry) -> CardInfo.Port {
        let attributes = EntryAttributes(entry.attributes ?? "", forProfile: false)
        let type = type(attributes, properties: entry.properties)
        return CardInfo.Port(name: entry.name, description: entry.description, priority: attributes.priority ?? 0,
                             availability: attributes.availability ?? .unknown, type: type,
                             availabilityGroup: attributes.availabilityGroup ?? entry.properties["port.availability-group"],
                             direction: direction(of: entry, type: type), profileNames: entry.profileNames,
                             properties: entry.properties, latencyOffset: attributes.latencyOffset ?? 0)
    }

    /// A card profile. `pacmd` prints no sink and source counts: they come from ACP profile
    /// names when those follow the `output:x+input:y` convention, else they are 0.
    static func profile(_ entry: RawEntry) -> CardInfo.Profile {
        let attributes = EntryAttributes(entry.attributes ?? "", forProfile: true)
        let implied = DumpValues.profileCounts(entry.name)
        return CardInfo.Profile(name: entry.name, description: entry.description,
                                sinkCount: attributes.sinks ?? implied?.sinks ?? 0,
                                sourceCount: attributes.sources ?? implied?.sources ?? 0,
                                priority: attributes.priority ?? 0, isAvailable: attributes.isAvailable ?? true)
    }

    /// The printed type, else the `port.type` property PipeWire sets, else unknown.
    private static func type(_ attributes: EntryAttributes, properties: [String: String]) -> DevicePortType {
        if let printed = attributes.type, printed != .unknown {
            return printed
        }
        return properties["port.type"].flatMap { PactlVocabulary.portType($0) } ?? .unknown
    }

    private static func direction(of entry: RawEntry, type: DevicePortType) -> CardInfo.Direction {
        let name = entry.name.lowercased()
        if name.hasPrefix("[out]") || name.contains("output") || name.contains("sink") {
            return .output
        }
        if name.hasPrefix("[in]") || name.contains("input") || name.contains("source") {
            return .input
        }
        switch type {
        case .mic: return .input
        case .speaker, .headphones, .earpiece, .hdmi: return .output
        default: break
        }
        let parts = entry.profileNames.flatMap { $0.split(separator: "+") }
        if !parts.isEmpty, parts.allSatisfy({ $0.hasPrefix("output:") }) { return .output }
        if !parts.isEmpty, parts.allSatisfy({ $0.hasPrefix("input:") }) { return .input }
        return []
    }
}
