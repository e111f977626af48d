import PulseAudio

/// Checks a ``CardBlueprint`` before it is plugged in: what a real driver could never produce
/// is a mistake in the test.
enum CardValidation {
    static func check(_ card: CardBlueprint, in state: SimulationState) throws(SimulationError) {
        guard NameResolution.isValid(card.name) else {
            throw SimulationError("\"\(card.name)\" is not a valid card name (1 to 128 of A-Z a-z 0-9 . _ -)")
        }
        if state.card(named: card.name) != nil {
            throw SimulationError("a card called \"\(card.name)\" exists already")
        }
        try unique(card.ports.map(\.name), "port", of: card)
        try unique(card.profiles.map(\.name), "profile", of: card)
        for port in card.ports where port.direction != .output && port.direction != .input {
            throw SimulationError("port \"\(port.name)\" of card \"\(card.name)\" must be either output or input")
        }
        if let active = card.activeProfile, !card.profiles.contains(where: { $0.name == active }) {
            throw SimulationError("card \"\(card.name)\" has no profile \"\(active)\" to start with")
        }
        if card.profiles.isEmpty {
            throw SimulationError("card \"\(card.name)\" has no profile")
        }
        if card.behavior == .bluetooth, !card.profiles.contains(where: { $0.name == "off" }) {
            throw SimulationError("Bluetooth card \"\(card.name)\" needs an \"off\" profile, as module-bluez5-device gives one")
        }
        try unique(card.jacks.map(\.name), "jack", of: card)
        for jack in card.jacks {
            let named = Set(jack.whenPlugged.keys).union(jack.whenUnplugged.keys)
            for name in named where !card.ports.contains(where: { $0.name == name }) {
                throw SimulationError("jack \"\(jack.name)\" of card \"\(card.name)\" names port \"\(name)\", "
                                      + "which the card lacks")
            }
        }
        var deviceNames: Set<String> = []
        for profile in card.profiles {
            for (side, devices) in [(Side.output, profile.sinks), (Side.input, profile.sources)] {
                try unique(devices.map(\.name), "\(side.deviceNoun) in profile \"\(profile.name)\"", of: card)
                for device in devices {
                    try check(device, side, of: card)
                    deviceNames.insert(device.name)
                }
            }
        }
        for name in deviceNames where state.device(.output, named: name) != nil || state.device(.input, named: name) != nil {
            throw SimulationError("card \"\(card.name)\" would create \"\(name)\", which exists already")
        }
    }

    private static func check(_ device: DeviceBlueprint, _ side: Side, of card: CardBlueprint) throws(SimulationError) {
        guard NameResolution.isValid(device.name) else {
            throw SimulationError("\"\(device.name)\" is not a valid device name")
        }
        for name in device.ports {
            guard let port = card.ports.first(where: { $0.name == name }) else {
                throw SimulationError("\(side.deviceNoun) \"\(device.name)\" names port \"\(name)\", "
                                      + "which card \"\(card.name)\" lacks")
            }
            guard port.direction == side.direction else {
                throw SimulationError("\(side.deviceNoun) \"\(device.name)\" cannot use port \"\(name)\" of the other direction")
            }
        }
        if let active = device.activePort, !device.ports.contains(active) {
            throw SimulationError("\(side.deviceNoun) \"\(device.name)\" starts on port \"\(active)\", which it does not offer")
        }
    }

    private static func unique(_ names: [String], _ what: String, of card: CardBlueprint) throws(SimulationError) {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw SimulationError("card \"\(card.name)\" has two of \(what) \"\(name)\"")
        }
    }
}
