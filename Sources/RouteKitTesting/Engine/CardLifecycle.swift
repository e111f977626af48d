import PulseAudio

/// Cards appearing and going, as `module-alsa-card` and `module-bluez5-device` do it in
/// PulseAudio 16 (modelled from source, null sinks cannot show it): `pa_card_put` posts the
/// card's new, then the active profile's sinks (each with its monitor) and sources are put,
/// then the module's new. Removal (`pa__done`) unlinks the sinks, then the sources, then
/// posts the card's remove (`pa_card_free`) and the module's remove.
extension SimulationState {
    /// Plugs `blueprint` in and returns the card's index. The blueprint is valid (checked by the caller).
    mutating func putCard(_ blueprint: CardBlueprint) -> UInt32 {
        let module = addModule(name: blueprint.moduleName, argument: blueprint.moduleArgument)
        let index = allocateCardIndex()
        let active = blueprint.activeProfile ?? Self.initialProfile(blueprint.profiles)
        cards[index] = CardRecord(index: index, name: blueprint.name, driver: blueprint.driver, module: module,
                                  properties: blueprint.properties, ports: blueprint.ports,
                                  profiles: blueprint.profiles, activeProfile: active, jacks: blueprint.jacks,
                                  behavior: blueprint.behavior)
        post(.card, .new, index)
        createDevices(card: index, profile: active, side: .output)
        createDevices(card: index, profile: active, side: .input)
        post(.module, .new, module)
        return index
    }

    /// `pa_card_choose_initial_profile`: the highest-priority profile that is available,
    /// else the highest-priority one.
    static func initialProfile(_ profiles: [CardBlueprint.Profile]) -> String {
        var best: CardBlueprint.Profile?
        for profile in profiles where profile.isAvailable {
            if best == nil || profile.priority > best!.priority { best = profile }
        }
        if best == nil {
            for profile in profiles where best == nil || profile.priority > best!.priority { best = profile }
        }
        return best?.name ?? "off"
    }

    /// Puts the devices of `side` that `profile` creates and that do not exist yet; returns
    /// the index of each of the profile's devices of that side, in profile order.
    @discardableResult
    mutating func createDevices(card index: UInt32, profile name: String, side: Side) -> [UInt32] {
        guard let card = cards[index], let profile = card.profile(named: name) else { return [] }
        let blueprints = side == .output ? profile.sinks : profile.sources
        var result: [UInt32] = []
        for blueprint in blueprints {
            if let existing = cardDevices(side, card: index).first(where: { $0.name == blueprint.name }) {
                result.append(existing.index)
                continue
            }
            let (device, monitor) = makeDevice(side, blueprint, card: card, module: card.module)
            putDevice(device, monitor: monitor)
            result.append(device.index)
        }
        return result
    }

    /// Unplugs the card at `index`.
    mutating func removeCard(_ index: UInt32) {
        guard let card = cards[index] else { return }
        for sink in cardDevices(.output, card: index) {
            unlinkDevice(.output, sink.index)
        }
        for source in cardDevices(.input, card: index) {
            unlinkDevice(.input, source.index)
        }
        cards[index] = nil
        post(.card, .remove, index)
        removeModule(card.module)
    }
}
