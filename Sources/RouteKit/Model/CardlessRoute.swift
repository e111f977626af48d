import PulseAudio

/// One route of a sink or source listed without its card: one of its ports, or the sink or
/// source itself when it has none. A card-less sink with several ports (a UCM
/// `Speaker + Headphones` sink, PulseAudio 0.9's `path;option` ports) offers each of them,
/// as a card would.
struct CardlessRoute {
    /// The sink's or source's name.
    var owner: String
    /// The port, nil for a port-less sink or source.
    var port: DevicePort?
    /// What the classifier says of it.
    var kind: AudioDeviceKind
    /// The owner's hardware (``DeviceModel/hardwareIdentity(_:)``), to pair outputs with inputs.
    var hardware: String?
    /// What a person reads: the owner's description, with the port's before it when the
    /// owner has several.
    var description: String
    /// The device id: the owner's name, then `/port` when the owner has several ports.
    var id: String
    /// The port's availability (a port-less owner is there, so available).
    var availability: PortAvailability { port?.availability ?? .available }

    /// The routes of `sink`: one per port, or one for the sink itself.
    static func routes(of sink: SinkInfo) -> [CardlessRoute] {
        routes(owner: sink.name, description: sink.description, ports: sink.ports, properties: sink.properties) { port in
            DeviceClassifier.classify(ClassificationEvidence(sink: sink, port: port))
        }
    }

    /// The routes of `source`: one per port, or one for the source itself.
    static func routes(of source: SourceInfo) -> [CardlessRoute] {
        routes(owner: source.name, description: source.description, ports: source.ports, properties: source.properties) { port in
            DeviceClassifier.classify(ClassificationEvidence(source: source, port: port))
        }
    }

    private static func routes(owner: String, description: String, ports: [DevicePort], properties: [String: String],
                               classify: (DevicePort?) -> AudioDeviceKind) -> [CardlessRoute] {
        let hardware = DeviceModel.hardwareIdentity(properties)
        guard ports.count > 1 else {
            return [CardlessRoute(owner: owner, port: ports.first, kind: classify(ports.first), hardware: hardware,
                                  description: description, id: owner)]
        }
        return ports.map { port in
            CardlessRoute(owner: owner, port: port, kind: classify(port), hardware: hardware,
                          description: "\(port.description) (\(description))", id: "\(owner)/\(port.name)")
        }
    }

    /// The endpoint this route is, for a device.
    func endpoint(ownerDescription: String) -> AudioDevice.Endpoint {
        AudioDevice.Endpoint(deviceName: owner, port: port?.name, description: ownerDescription)
    }

    /// The input that goes with this output: of the same hardware, sharing the port's jack
    /// (availability group) when one does, else of the same kind; for speakers and
    /// headphones, the built-in microphone when nothing else fits.
    func matchingInput(among inputs: InputIndex) -> CardlessRoute? {
        guard let hardware else { return nil }
        if let group = port?.availabilityGroup, let grouped = inputs.first[InputIndex.Key(hardware, kind, group)] {
            return grouped
        }
        if let sameKind = inputs.first[InputIndex.Key(hardware, kind, nil)] { return sameKind }
        guard kind == .speakerphone || kind == .wiredHeadset else { return nil }
        return inputs.first[InputIndex.Key(hardware, .speakerphone, nil)]
    }

    /// The first input of each hardware and kind (and availability group), found in one
    /// pass, so that pairing costs the same for each output however large the dump.
    struct InputIndex {
        /// Hardware, kind and, for the jack's own input, its availability group.
        struct Key: Hashable {
            var hardware: String
            var kind: AudioDeviceKind
            var group: String?

            init(_ hardware: String, _ kind: AudioDeviceKind, _ group: String?) {
                self.hardware = hardware
                self.kind = kind
                self.group = group
            }
        }

        /// The first input for each key.
        var first: [Key: CardlessRoute] = [:]

        /// The index of `inputs`, first one first.
        init(_ inputs: [CardlessRoute]) {
            for input in inputs.reversed() {
                guard let hardware = input.hardware else { continue }
                first[Key(hardware, input.kind, nil)] = input
                if let group = input.port?.availabilityGroup { first[Key(hardware, input.kind, group)] = input }
            }
        }
    }
}
