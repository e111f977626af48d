import PulseAudio

/// Scripting cards: hardware appearing and disappearing, jacks, profile availability.
extension SimulatedServer {
    /// Plugs in a card (a Bluetooth device connecting, a USB device plugged in) and returns it:
    /// the card appears, then the sinks and sources of its active profile.
    @discardableResult
    public func addCard(_ card: CardBlueprint) throws(SimulationError) -> CardInfo {
        try perform { (state: inout SimulationState) throws(SimulationError) -> CardInfo in
            try CardValidation.check(card, in: state)
            let index = state.putCard(card)
            return state.cardInfo(state.cards[index]!)
        }
    }

    /// Unplugs a card (Bluetooth disconnect, USB unplug): its sinks and sources go first,
    /// their streams moving to the default devices (or ending when there are none).
    public func removeCard(named name: String) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let card = state.card(named: name) else { throw SimulationError("there is no card \"\(name)\"") }
            state.removeCard(card.index)
        }
    }

    /// Plugs or unplugs a jack: sets the availability of `port` on `card` and, when
    /// `includingGroup`, of every port of the card in its availability group (one jack's
    /// detection), in the card's port order. The card and the devices offering the ports
    /// change; the default device, streams and (with
    /// ``Options/switchesPortsOnAvailabilityChange``) active ports follow as on PulseAudio 16.
    public func setPortAvailability(card: String, port: String, _ availability: PortAvailability,
                                    includingGroup: Bool = true) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let record = state.card(named: card) else { throw SimulationError("there is no card \"\(card)\"") }
            guard let target = record.ports.first(where: { $0.name == port }) else {
                throw SimulationError("card \"\(card)\" has no port \"\(port)\"")
            }
            var names = [port]
            if includingGroup, let group = target.availabilityGroup {
                names = record.ports.filter { $0.availabilityGroup == group }.map(\.name)
            }
            state.setPortsAvailable(card: record.index, Dictionary(uniqueKeysWithValues: names.map { ($0, availability) }))
        }
    }

    /// Changes the availability of several ports of `card` as one jack event: ports becoming
    /// available or unknown first, then those becoming unavailable, as PulseAudio's
    /// `report_jack_state` orders them.
    public func setPortAvailability(card: String, _ changes: [String: PortAvailability]) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let record = state.card(named: card) else { throw SimulationError("there is no card \"\(card)\"") }
            for name in changes.keys where record.portPosition(named: name) == nil {
                throw SimulationError("card \"\(card)\" has no port \"\(name)\"")
            }
            state.setPortsAvailable(card: record.index, changes)
        }
    }

    /// Plugs something into `jack` of `card`, or unplugs it: the ports the jack detects change
    /// availability as the blueprint's ``CardBlueprint/Jack`` says, as one jack event
    /// (``setPortAvailability(card:_:)``).
    ///
    /// ```swift
    /// try server.setJack(card: "alsa_card.pci-0000_00_1f.3", jack: "Headphone", plugged: true)
    /// ```
    public func setJack(card: String, jack: String, plugged: Bool) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let record = state.card(named: card) else { throw SimulationError("there is no card \"\(card)\"") }
            guard let found = record.jacks.first(where: { $0.name == jack }) else {
                throw SimulationError("card \"\(card)\" has no jack \"\(jack)\"")
            }
            state.setPortsAvailable(card: record.index, plugged ? found.whenPlugged : found.whenUnplugged)
        }
    }

    /// Makes a profile of `card` available or not, as a Bluetooth profile connecting or
    /// dropping does. When the active profile becomes unavailable, the card switches to its
    /// best available profile (with ``Options/switchesPortsOnAvailabilityChange``).
    public func setProfileAvailability(card: String, profile: String, _ isAvailable: Bool) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let record = state.card(named: card) else { throw SimulationError("there is no card \"\(card)\"") }
            guard record.profile(named: profile) != nil else {
                throw SimulationError("card \"\(card)\" has no profile \"\(profile)\"")
            }
            state.setProfileAvailable(card: record.index, profile: profile, isAvailable)
        }
    }
}
