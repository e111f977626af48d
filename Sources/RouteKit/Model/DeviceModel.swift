import PulseAudio

/// Turns the server's cards, sinks and sources into the devices a person sees.
///
/// Devices are built per card (a card's ports pair with each other: a headset's microphone
/// with its speakers) and per card-less sink or source (null sinks, PipeWire nodes). The
/// work for one card does not depend on the others, which is what lets ``DeviceList`` update
/// one card's devices on an event about that card alone.
public enum DeviceModel {
    /// Every device, from a complete snapshot. Monitor sources are not devices.
    ///
    /// Each id is one device: a snapshot that lists one card, sink or source twice (a pasted
    /// dump holding `pactl list` and then `pacmd` of the same machine, or two captures) gives
    /// its devices once, from the last listing; listings that differ in ports (a card before
    /// and after a configuration change) give each of their ports.
    public static func devices(cards: [CardInfo], sinks: [SinkInfo], sources: [SourceInfo],
                               defaultSinkName: String?, defaultSourceName: String?) -> [AudioDevice] {
        let knownCards = Set(cards.map(\.index))
        // Grouped once: filtering every sink for every card made large dumps quadratic.
        let sinksByCard = Dictionary(grouping: sinks.filter { $0.card != nil }, by: { $0.card ?? 0 })
        let sourcesByCard = Dictionary(grouping: sources.filter { $0.card != nil }, by: { $0.card ?? 0 })
        var devices: [AudioDevice] = []
        for card in cards {
            devices += Self.devices(card: card, sinks: sinksByCard[card.index] ?? [], sources: sourcesByCard[card.index] ?? [])
        }
        devices += cardless(sinks: sinks.filter { $0.card.map { !knownCards.contains($0) } ?? true },
                            sources: sources.filter { $0.card.map { !knownCards.contains($0) } ?? true })
        return markActive(pairBuiltInMicrophones(lastOfEachID(devices)), defaultSinkName: defaultSinkName,
                          defaultSourceName: defaultSourceName, sinks: sinks, sources: sources)
    }

    /// A card's devices: each output port paired with the input that goes with it, then the
    /// inputs nothing took. `sinks` and `sources` are the card's own.
    package static func devices(card: CardInfo, sinks: [SinkInfo], sources: [SourceInfo]) -> [AudioDevice] {
        let cardDescription = card.properties["device.description"] ?? card.name
        let sources = sources.filter { !$0.isMonitor }
        let routes = card.ports.map { port in
            Route(port: port, kind: DeviceClassifier.classify(ClassificationEvidence(card: card, port: port)))
        }
        let outputs = routes.filter { $0.port.direction.contains(.output) }
        let inputs = routes.filter { !$0.port.direction.contains(.output) && $0.port.direction.contains(.input) }
        guard !outputs.isEmpty || !inputs.isEmpty else {
            // A card whose every profile has neither sink nor source (only `off`: a driver
            // that offers no profile) has nothing to route to.
            if !card.profiles.isEmpty, card.profiles.allSatisfy({ $0.sinkCount == 0 && $0.sourceCount == 0 }) { return [] }
            return [portlessCardDevice(card, sinks: sinks, sources: sources, description: cardDescription)]
        }
        let single = outputs.count <= 1
        func describe(_ port: CardInfo.Port) -> String { single ? cardDescription : "\(port.description) (\(cardDescription))" }
        func endpoint(_ port: CardInfo.Port, owners: [(name: String, ports: [DevicePort], active: String?)]) -> AudioDevice.Endpoint {
            let owner = owners.first { $0.active == port.name } ?? owners.first { $0.ports.contains { $0.name == port.name } }
            return AudioDevice.Endpoint(deviceName: owner?.name, port: port.name,
                                        profile: profile(offering: port, on: card), description: port.description)
        }
        let sinkOwners = sinks.map { (name: $0.name, ports: $0.ports, active: $0.activePortName) }
        let sourceOwners = sources.map { (name: $0.name, ports: $0.ports, active: $0.activePortName) }

        var devices: [AudioDevice] = []
        var pairedInputs = Set<String>()
        for output in outputs {
            let input = matchingInput(for: output, among: inputs)
            if let input { pairedInputs.insert(input.port.name) }
            let outputEndpoint = endpoint(output.port, owners: sinkOwners)
            devices.append(AudioDevice(
                id: AudioDevice.ID(rawValue: "\(card.name)/\(output.port.name)"), kind: output.kind,
                description: describe(output.port), bus: card.properties["device.bus"],
                formFactor: card.properties["device.form_factor"],
                availability: availability(of: output.port, profile: outputEndpoint.profile, on: card),
                isActive: false, card: card.name, output: outputEndpoint,
                input: input.map { endpoint($0.port, owners: sourceOwners) },
                requiredProfile: outputEndpoint.profile == card.activeProfileName ? nil : outputEndpoint.profile,
                callProfile: input.flatMap { profile(offering: output.port, and: $0.port, on: card) }))
        }
        for input in inputs where !pairedInputs.contains(input.port.name) {
            let inputEndpoint = endpoint(input.port, owners: sourceOwners)
            devices.append(AudioDevice(
                id: AudioDevice.ID(rawValue: "\(card.name)/\(input.port.name)"), kind: input.kind,
                description: "\(input.port.description) (\(cardDescription))", bus: card.properties["device.bus"],
                formFactor: card.properties["device.form_factor"],
                availability: availability(of: input.port, profile: inputEndpoint.profile, on: card),
                isActive: false, card: card.name, output: nil, input: inputEndpoint,
                requiredProfile: inputEndpoint.profile == card.activeProfileName ? nil : inputEndpoint.profile))
        }
        return devices
    }

    /// Devices for sinks and sources without a (known) card: one per port (one for a
    /// port-less sink or source), each output paired with an input of the same hardware (same
    /// Bluetooth address, ALSA card or bus path) — of its own kind, or, for speakers and
    /// headphones, the built-in microphone.
    package static func cardless(sinks: [SinkInfo], sources: [SourceInfo]) -> [AudioDevice] {
        let sources = sources.filter { !$0.isMonitor }
        let sourceDescriptions = Dictionary(sources.map { ($0.name, $0.description) }, uniquingKeysWith: { first, _ in first })
        let inputs = CardlessRoute.InputIndex(sources.flatMap(CardlessRoute.routes(of:)))
        var pairedInputs = Set<String>()
        var devices: [AudioDevice] = []
        for sink in sinks {
            for output in CardlessRoute.routes(of: sink) {
                let input = output.matchingInput(among: inputs)
                if let input { pairedInputs.insert(input.id) }
                devices.append(AudioDevice(
                    id: AudioDevice.ID(rawValue: output.id), kind: output.kind,
                    description: output.description, bus: sink.properties["device.bus"],
                    formFactor: sink.properties["device.form_factor"],
                    availability: output.availability, isActive: false, card: nil,
                    output: output.endpoint(ownerDescription: sink.description),
                    input: input.map { $0.endpoint(ownerDescription: sourceDescriptions[$0.owner] ?? $0.owner) },
                    requiredProfile: nil))
            }
        }
        for source in sources {
            for input in CardlessRoute.routes(of: source) where !pairedInputs.contains(input.id) {
                devices.append(AudioDevice(
                    id: AudioDevice.ID(rawValue: input.id), kind: input.kind,
                    description: input.description, bus: source.properties["device.bus"],
                    formFactor: source.properties["device.form_factor"],
                    availability: input.availability, isActive: false, card: nil, output: nil,
                    input: input.endpoint(ownerDescription: source.description),
                    requiredProfile: nil))
            }
        }
        return devices
    }

    /// `devices` with each id once, at its last place: the last listing of a card, sink or
    /// source pasted twice.
    static func lastOfEachID(_ devices: [AudioDevice]) -> [AudioDevice] {
        var seen: Set<AudioDevice.ID> = []
        return devices.reversed().filter { seen.insert($0.id).inserted }.reversed()
    }

    /// Headphones without a microphone (and any output left without an input) use the
    /// built-in microphone: the first input-only speakerphone device.
    static func pairBuiltInMicrophones(_ devices: [AudioDevice]) -> [AudioDevice] {
        guard let builtIn = devices.first(where: { $0.output == nil && $0.kind == .speakerphone })?.input
                ?? devices.first(where: { $0.kind == .speakerphone && $0.input != nil })?.input else { return devices }
        return devices.map { device in
            var device = device
            if device.output != nil, device.input == nil, device.kind == .wiredHeadset || device.kind == .speakerphone {
                device.input = builtIn
            }
            return device
        }
    }

    /// Marks the devices audio goes to now: the default sink on its active port (and, for
    /// input-only devices, the default source on its active port).
    package static func markActive(_ devices: [AudioDevice], defaultSinkName: String?, defaultSourceName: String?,
                                  sinks: [SinkInfo], sources: [SourceInfo]) -> [AudioDevice] {
        markActive(devices, defaultSink: sinks.first { $0.name == defaultSinkName },
                   defaultSource: sources.first { $0.name == defaultSourceName })
    }

    /// Marks the devices on `defaultSink` and `defaultSource` active, the others not. A device
    /// whose mark stays is not copied: its storage is shared with the list it came from.
    static func markActive(_ devices: [AudioDevice], defaultSink: SinkInfo?, defaultSource: SourceInfo?) -> [AudioDevice] {
        var marked = devices
        for index in marked.indices {
            let active = isActive(marked[index], defaultSink: defaultSink, defaultSource: defaultSource)
            if marked[index].isActive != active { marked[index].isActive = active }
        }
        return marked
    }

    static func isActive(_ device: AudioDevice, defaultSink: SinkInfo?, defaultSource: SourceInfo?) -> Bool {
        if let output = device.output {
            guard let sink = defaultSink, output.deviceName == sink.name else { return false }
            return output.port == nil || output.port == sink.activePortName
        }
        guard let input = device.input, let source = defaultSource, input.deviceName == source.name else { return false }
        return input.port == nil || input.port == source.activePortName
    }

    // MARK: Helpers

    private struct Route {
        var port: CardInfo.Port
        var kind: AudioDeviceKind
    }

    /// The input that goes with `output`: same kind, sharing its jack's availability group
    /// when one does, else the first of that kind.
    private static func matchingInput(for output: Route, among inputs: [Route]) -> Route? {
        let sameKind = inputs.filter { $0.kind == output.kind }
        if let group = output.port.availabilityGroup, let grouped = sameKind.first(where: { $0.port.availabilityGroup == group }) {
            return grouped
        }
        return sameKind.first
    }

    /// The profile to use `port` with: the active one when it offers the port, else the
    /// best offering one (available first, then by priority).
    static func profile(offering port: CardInfo.Port, on card: CardInfo) -> String? {
        if let active = card.activeProfileName, port.profileNames.contains(active) { return active }
        let offering = card.profiles.filter { port.profileNames.contains($0.name) }
        return offering.max { ($0.isAvailable ? 1 : 0, $0.priority) < ($1.isAvailable ? 1 : 0, $1.priority) }?.name
            ?? port.profileNames.first
    }

    /// The profile to use `output` and `input` together with: the active one when it offers
    /// both, else the best one that does (available first, then by priority); nil when none does.
    static func profile(offering output: CardInfo.Port, and input: CardInfo.Port, on card: CardInfo) -> String? {
        let both = Set(output.profileNames).intersection(input.profileNames)
        if let active = card.activeProfileName, both.contains(active) { return active }
        return card.profiles.filter { both.contains($0.name) }
            .max { ($0.isAvailable ? 1 : 0, $0.priority) < ($1.isAvailable ? 1 : 0, $1.priority) }?.name
    }

    /// A port's availability, unavailable when the only profiles that offer it are.
    private static func availability(of port: CardInfo.Port, profile: String?, on card: CardInfo) -> PortAvailability {
        if let profile, let info = card.profiles.first(where: { $0.name == profile }), !info.isAvailable { return .unavailable }
        return port.availability
    }

    private static func portlessCardDevice(_ card: CardInfo, sinks: [SinkInfo], sources: [SourceInfo],
                                           description: String) -> AudioDevice {
        let sink = sinks.first, source = sources.first
        return AudioDevice(
            id: AudioDevice.ID(rawValue: card.name), kind: DeviceClassifier.classify(ClassificationEvidence(card: card)),
            description: description, bus: card.properties["device.bus"], formFactor: card.properties["device.form_factor"],
            availability: card.profiles.contains { $0.isAvailable && ($0.sinkCount > 0 || $0.sourceCount > 0) } ? .available : .unknown,
            isActive: false, card: card.name,
            output: sink.map { AudioDevice.Endpoint(deviceName: $0.name, port: $0.activePortName, profile: card.activeProfileName,
                                                    description: $0.description) },
            input: source.map { AudioDevice.Endpoint(deviceName: $0.name, port: $0.activePortName, profile: card.activeProfileName,
                                                     description: $0.description) },
            requiredProfile: nil)
    }

    /// What tells one piece of hardware's sinks and sources apart from others' when they
    /// come without their card: the Bluetooth address, the ALSA card, the bus path.
    static func hardwareIdentity(_ properties: [String: String]) -> String? {
        properties["api.bluez5.address"] ?? properties["device.name"] ?? properties["device.bus_path"]
    }
}
