import PulseAudio

/// The devices a profile the dump does not show in use would create.
extension DumpImport {
    /// The devices an inactive profile would create, named as PulseAudio names them.
    static func devices(of card: CardInfo, _ profile: CardInfo.Profile, _ side: Side,
                                reusing active: [DeviceBlueprint]) -> [DeviceBlueprint] {
        let count = Int(side == .output ? profile.sinkCount : profile.sourceCount)
        guard count > 0 else { return [] }
        let ofSide = card.ports.filter { $0.direction == side.direction }
        // Old dumps list no profiles for ports: then the card's ports of this direction.
        let declared = ofSide.contains { !$0.profileNames.isEmpty }
        let ports = ofSide.filter { !declared || $0.profileNames.contains(profile.name) }.map(\.name)
        return (0..<count).map { number in
            let name = deviceName(of: card, profile, side, number: number)
            if let existing = active.first(where: { $0.name == name }) { return existing }
            let description = "\(card.properties["device.description"] ?? card.name) \(profile.description)"
            return DeviceBlueprint(name: name, description: description, ports: number == 0 ? ports : [])
        }
    }

    private static func deviceName(of card: CardInfo, _ profile: CardInfo.Profile, _ side: Side, number: Int) -> String {
        if card.name.hasPrefix("bluez_card.") {
            let address = card.name.dropFirst("bluez_card.".count)
            let suffix = number == 0 ? "" : ".\(number + 1)"
            return "\(side == .output ? "bluez_sink" : "bluez_source").\(address).\(profile.name)\(suffix)"
        }
        let id = card.name.hasPrefix("alsa_card.") ? String(card.name.dropFirst("alsa_card.".count)) : card.name
        // `output:analog-comm+output:analog-main+input:analog-comm`: one mapping a device.
        let prefix = side == .output ? "output:" : "input:"
        let mappings = profile.name.split(separator: "+").filter { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
        let mapping: String
        if number < mappings.count {
            mapping = mappings[number]
        } else {
            mapping = "\(mappings.last ?? profile.name)\(number == 0 ? "" : ".\(number + 1)")"
        }
        return "\(side == .output ? "alsa_output" : "alsa_input").\(id).\(mapping)"
    }
}
