import PulseAudio

/// Gives a card listed without ports the ports its own sinks and sources list.
///
/// PulseAudio before 2.0 kept ports on sinks and sources only: its `pactl list` prints cards
/// with properties and profiles and nothing more. Read as it stands, such a card is one device
/// whose kind its properties alone decide, and its sink's speaker, line out and headphone jack
/// (or its source's internal and jack microphones) are one route of that device. The ports are
/// the card's all the same: this lists them on it, with the direction their owner gives them
/// and the card's active profile as the one that offers them.
///
/// A card that lists ports keeps them, and a card whose sinks and sources list none stays
/// port-less.
enum PortlessCardPorts {
    /// `dump` with each port-less card given its sinks' and sources' ports.
    static func lift(_ dump: inout ServerDump) {
        guard dump.cards.contains(where: \.ports.isEmpty) else { return }
        var outputs: [UInt32: [DevicePort]] = [:]
        var inputs: [UInt32: [DevicePort]] = [:]
        for sink in dump.sinks {
            if let card = sink.card { outputs[card, default: []] += sink.ports }
        }
        for source in dump.sources where !source.isMonitor {
            if let card = source.card { inputs[card, default: []] += source.ports }
        }
        for position in dump.cards.indices where dump.cards[position].ports.isEmpty {
            let card = dump.cards[position]
            let profiles = card.activeProfileName.map { [$0] } ?? []
            var seen: Set<String> = []
            func cardPorts(_ ports: [DevicePort], _ direction: CardInfo.Direction) -> [CardInfo.Port] {
                ports.filter { seen.insert($0.name).inserted }.map { port in
                    CardInfo.Port(name: port.name, description: port.description, priority: port.priority,
                                  availability: port.availability, type: port.type, availabilityGroup: port.availabilityGroup,
                                  direction: direction, profileNames: profiles, properties: [:], latencyOffset: 0)
                }
            }
            dump.cards[position].ports = cardPorts(outputs[card.index] ?? [], .output) + cardPorts(inputs[card.index] ?? [], .input)
        }
    }
}
