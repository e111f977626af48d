import PulseAudio

/// Gives a card listed without ports the ports its own sinks and sources list.
///
/// PulseAudio before 2.0 kept ports on sinks and sources only: its `pactl list` prints cards
/// with properties and profiles and nothing more. Read as it stands, such a card is one device
/// whose kind its properties alone decide, and its sink's speaker, line out and headphone jack
/// (or its source's internal and jack microphones) are one route of that device. The ports are
/// the card's all the same: this lists them on it, with the direction their owner gives them.
/// The profiles that offer them are those that bring up their owner: the active one, and
/// every profile whose part for that direction names the owner's mapping (`output:analog-stereo`
/// for `alsa_output.….analog-stereo`), as ALSA cards' profiles are made of their mappings.
///
/// A card that lists ports keeps them, and a card whose sinks and sources list none stays
/// port-less.
enum PortlessCardPorts {
    /// `dump` with each port-less card given its sinks' and sources' ports.
    static func lift(_ dump: inout ServerDump) {
        guard dump.cards.contains(where: \.ports.isEmpty) else { return }
        // Each card's sinks' and sources' ports, with the mapping of the sink or source listing them.
        var outputs: [UInt32: [(port: DevicePort, mapping: String)]] = [:]
        var inputs: [UInt32: [(port: DevicePort, mapping: String)]] = [:]
        for sink in dump.sinks {
            if let card = sink.card { outputs[card, default: []] += sink.ports.map { ($0, mapping(of: sink.name)) } }
        }
        for source in dump.sources where !source.isMonitor {
            if let card = source.card { inputs[card, default: []] += source.ports.map { ($0, mapping(of: source.name)) } }
        }
        for position in dump.cards.indices where dump.cards[position].ports.isEmpty {
            let card = dump.cards[position]
            var seen: Set<String> = []
            func cardPorts(_ ports: [(port: DevicePort, mapping: String)], _ direction: CardInfo.Direction) -> [CardInfo.Port] {
                let part = direction == .output ? "output:" : "input:"
                return ports.filter { seen.insert($0.port.name).inserted }.map { port, mapping in
                    let offering = card.profiles.map(\.name).filter { profile in
                        profile == card.activeProfileName || profile.split(separator: "+").contains { $0 == part + mapping }
                    }
                    return CardInfo.Port(name: port.name, description: port.description, priority: port.priority,
                                         availability: port.availability, type: port.type,
                                         availabilityGroup: port.availabilityGroup, direction: direction,
                                         profileNames: offering.isEmpty ? card.activeProfileName.map { [$0] } ?? [] : offering,
                                         properties: [:], latencyOffset: 0)
                }
            }
            dump.cards[position].ports = cardPorts(outputs[card.index] ?? [], .output) + cardPorts(inputs[card.index] ?? [], .input)
        }
    }

    /// The mapping a sink or source name ends with: `analog-stereo` in
    /// `alsa_output.pci-0000_00_1b.0.analog-stereo`.
    private static func mapping(of name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
