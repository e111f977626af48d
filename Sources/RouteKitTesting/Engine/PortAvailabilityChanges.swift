import PulseAudio

/// A jack plugged or unplugged, a Bluetooth transport connecting (modelled from PulseAudio
/// 16's source; null sinks have no ports): `pa_device_port_set_available`
/// (src/pulsecore/device-port.c) posts the card's change, then the change of the sink and
/// source offering the port, updates the default device (a device whose active port is
/// unavailable loses), rescues the streams of a device whose active port became unavailable,
/// and brings back streams that prefer a device whose active port came back; then
/// `module-switch-on-port-available` reacts (``applyPortSwitchingPolicy(card:port:)``).
/// `module-alsa-card`'s `report_jack_state` then recomputes profile availability.
extension SimulationState {
    /// Applies `changes` to the ports of `card` as one jack event, in `report_jack_state`'s
    /// order: ports becoming available or unknown first, then those becoming unavailable
    /// (each group in the card's port order), then profile availability for an ALSA card.
    mutating func setPortsAvailable(card index: UInt32, _ changes: [String: PortAvailability]) {
        guard let card = cards[index] else { return }
        let ordered = card.ports.compactMap { port in changes[port.name].map { (port.name, $0) } }
        for (name, availability) in ordered where availability != .unavailable {
            setPortAvailable(card: index, port: name, availability)
        }
        for (name, availability) in ordered where availability == .unavailable {
            setPortAvailable(card: index, port: name, availability)
        }
        if cards[index]?.behavior == .alsa {
            updateProfileAvailability(card: index)
        }
    }

    /// `pa_device_port_set_available`.
    mutating func setPortAvailable(card index: UInt32, port name: String, _ availability: PortAvailability) {
        guard let card = cards[index], let position = card.portPosition(named: name),
              card.ports[position].availability != availability else { return }
        cards[index]?.ports[position].availability = availability
        post(.card, .change, index)
        let sink = cardDevices(.output, card: index).first { $0.cardPortNames.contains(name) }
        let source = cardDevices(.input, card: index).first { $0.cardPortNames.contains(name) }
        if let sink { post(.sink, .change, sink.index) }
        if let source { post(.source, .change, source.index) }
        let side: Side = card.ports[position].direction.contains(.output) ? .output : .input
        updateDefault(side)
        if let owner = side == .output ? sink : source, devices[side][owner.index]?.activePortName == name {
            if availability == .unavailable {
                moveStreamsToDefault(side, from: owner.index, defaultChanged: false)
            } else {
                moveStreamsToPreferred(side, owner.index)
            }
        }
        applyPortSwitchingPolicy(card: index, port: name)
    }

    /// The tail of `report_jack_state` (module-alsa-card.c): a profile whose ports of each
    /// direction it has are all unavailable becomes unavailable; the active profile is updated last.
    mutating func updateProfileAvailability(card index: UInt32) {
        guard let card = cards[index] else { return }
        var active: Bool?
        for profile in card.profiles {
            let ports = card.ports.filter { card.profileNames(offering: $0).contains(profile.name) }
            let inputs = ports.filter { $0.direction.contains(.input) }
            let outputs = ports.filter { $0.direction.contains(.output) }
            let inputDead = !inputs.isEmpty && inputs.allSatisfy { $0.availability == .unavailable }
            let outputDead = !outputs.isEmpty && outputs.allSatisfy { $0.availability == .unavailable }
            let unavailable = (inputDead && outputDead) || (inputDead && outputs.isEmpty) || (outputDead && inputs.isEmpty)
            if profile.name == card.activeProfile {
                active = !unavailable
            } else {
                setProfileAvailable(card: index, profile: profile.name, !unavailable)
            }
        }
        if let active {
            setProfileAvailable(card: index, profile: card.activeProfile, active)
        }
    }

    /// `pa_card_profile_set_available`: the card's change; when the active profile became
    /// unavailable, `module-switch-on-port-available` switches to the best available profile
    /// (`off` when none is).
    mutating func setProfileAvailable(card index: UInt32, profile name: String, _ isAvailable: Bool) {
        guard let position = cards[index]?.profiles.firstIndex(where: { $0.name == name }),
              cards[index]?.profiles[position].isAvailable != isAvailable else { return }
        cards[index]?.profiles[position].isAvailable = isAvailable
        post(.card, .change, index)
        guard options.switchesPortsOnAvailabilityChange, !isAvailable,
              let card = cards[index], card.activeProfile == name,
              var best = card.profile(named: "off") else { return }
        for profile in card.profiles where profile.isAvailable && profile.priority > best.priority {
            best = profile
        }
        _ = switchProfile(card: index, to: best.name)
    }
}
