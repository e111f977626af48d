import PulseAudio

/// `module-switch-on-port-available` (loaded by PulseAudio's default.pa), modelled from
/// PulseAudio 16's source when ``SimulatedServer/Options/switchesPortsOnAvailabilityChange``
/// is on: a port that becomes available (or unknown, in an availability group) becomes its
/// device's active port; when the active port becomes unavailable, the device switches to
/// the card's best port of that direction that is not unavailable; a card in its `off`
/// profile switches to the highest-priority profile offering the port first. Bluetooth cards
/// are left alone. Not modelled: profile switches from a profile other than `off`
/// (`profile_good_for_output/input`), ports' preferred profiles and sticky profiles.
extension SimulationState {
    mutating func applyPortSwitchingPolicy(card index: UInt32, port name: String) {
        guard options.switchesPortsOnAvailabilityChange, let card = cards[index],
              card.properties["device.bus"] != "bluetooth",
              let port = card.ports.first(where: { $0.name == name }) else { return }
        let side: Side = port.direction.contains(.output) ? .output : .input
        switch port.availability {
        case .unknown:
            guard port.availabilityGroup != nil else { return }
            if side == .input, let owner = owner(of: name, side, card: index),
               let active = owner.activePortName,
               card.ports.first(where: { $0.name == active })?.availabilityGroup == nil {
                return
            }
            switchToPort(card: index, port: name)
        case .available:
            switchToPort(card: index, port: name)
        case .unavailable:
            guard owner(of: name, side, card: index)?.activePortName == name else { return }
            var best: CardBlueprint.Port?
            for candidate in card.ports
            where candidate.name != name && candidate.availability != .unavailable && candidate.direction == port.direction {
                if best == nil || best!.priority < candidate.priority { best = candidate }
            }
            if let best {
                switchToPort(card: index, port: best.name)
            }
        }
    }

    /// The device of `card` on `side` that offers `port`.
    func owner(of port: String, _ side: Side, card: UInt32) -> DeviceRecord? {
        cardDevices(side, card: card).first { $0.cardPortNames.contains(port) }
    }

    /// `switch_to_port`.
    private mutating func switchToPort(card index: UInt32, port name: String) {
        guard let card = cards[index], let port = card.ports.first(where: { $0.name == name }) else { return }
        let side: Side = port.direction.contains(.output) ? .output : .input
        if owner(of: name, side, card: index)?.activePortName == name { return }
        let offering = card.profileNames(offering: port)
        if !offering.contains(card.activeProfile) {
            // try_to_switch_profile, for a card that is off: the first highest-priority profile offering the port.
            guard card.activeProfile == "off" else { return }
            var best: CardBlueprint.Profile?
            for profile in card.profiles where offering.contains(profile.name) {
                if best == nil || profile.priority > best!.priority { best = profile }
            }
            guard let best, switchProfile(card: index, to: best.name) == nil else { return }
        }
        if let owner = owner(of: name, side, card: index) {
            _ = setDevicePort(side, owner.index, name)
        }
    }
}
