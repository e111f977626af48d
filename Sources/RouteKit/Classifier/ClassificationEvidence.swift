import PulseAudio

/// Everything the server says about one port (or one port-less sink, source, card or
/// PipeWire node) that tells what kind of device it is.
package struct ClassificationEvidence: Hashable, Sendable {
    /// Playback or capture.
    package enum Direction: String, Hashable, Sendable, Codable {
        /// A sink, or a card's output port.
        case output
        /// A source, or a card's input port.
        case input
    }

    /// Playback or capture.
    package var direction: Direction
    /// The name of the sink, source, card or node the port belongs to.
    package var ownerName: String
    /// The owner's driver (`module-combine-sink.c`, `PipeWire`, ...), when known.
    package var driver: String?
    /// The owner's properties (a sink's, a source's or a card's).
    package var properties: [String: String]
    /// The port's name, nil when there is no port.
    package var portName: String?
    /// The port's description (often translated: a weak hint).
    package var portDescription: String?
    /// The port's type (PulseAudio 14 and later; ``DevicePortType/unknown`` otherwise).
    package var portType: DevicePortType
    /// The port's own properties (card ports; PipeWire puts icon names there).
    package var portProperties: [String: String]
    /// Whether the port can be used now.
    package var availability: PortAvailability
    /// The port's availability group (ports sharing one jack's detection).
    package var availabilityGroup: String?
    /// Whether the owner is a monitor source.
    package var isMonitor: Bool
    /// Whether the card the port belongs to offers any output (a profile with a sink); nil
    /// when that is not known (a sink or source without its card).
    package var ownerOffersOutput: Bool?

    /// Evidence from its parts; only `direction` and `ownerName` are required.
    package init(direction: Direction, ownerName: String, driver: String? = nil, properties: [String: String] = [:],
                portName: String? = nil, portDescription: String? = nil, portType: DevicePortType = .unknown,
                portProperties: [String: String] = [:], availability: PortAvailability = .unknown,
                availabilityGroup: String? = nil, isMonitor: Bool = false, ownerOffersOutput: Bool? = nil) {
        self.direction = direction
        self.ownerName = ownerName
        self.driver = driver
        self.properties = properties
        self.portName = portName
        self.portDescription = portDescription
        self.portType = portType
        self.portProperties = portProperties
        self.availability = availability
        self.availabilityGroup = availabilityGroup
        self.isMonitor = isMonitor
        self.ownerOffersOutput = ownerOffersOutput
    }
}

extension ClassificationEvidence {
    /// The evidence for a sink on `port` (its active port when nil).
    package init(sink: SinkInfo, port: DevicePort? = nil) {
        let port = port ?? sink.activePort ?? sink.ports.first
        self.init(direction: .output, ownerName: sink.name, driver: sink.driver, properties: sink.properties,
                  portName: port?.name, portDescription: port?.description, portType: port?.type ?? .unknown,
                  availability: port?.availability ?? .unknown, availabilityGroup: port?.availabilityGroup)
    }

    /// The evidence for a source on `port` (its active port when nil).
    package init(source: SourceInfo, port: DevicePort? = nil) {
        let port = port ?? source.activePort ?? source.ports.first
        self.init(direction: .input, ownerName: source.name, driver: source.driver, properties: source.properties,
                  portName: port?.name, portDescription: port?.description, portType: port?.type ?? .unknown,
                  availability: port?.availability ?? .unknown, availabilityGroup: port?.availabilityGroup,
                  isMonitor: source.isMonitor)
    }

    /// The evidence for one of a card's ports.
    package init(card: CardInfo, port: CardInfo.Port) {
        self.init(direction: port.direction.contains(.output) ? .output : .input, ownerName: card.name,
                  driver: card.driver, properties: card.properties, portName: port.name,
                  portDescription: port.description, portType: port.type, portProperties: port.properties,
                  availability: port.availability, availabilityGroup: port.availabilityGroup,
                  ownerOffersOutput: Self.offersOutput(card))
    }

    /// Whether any of the card's profiles has a sink; nil when the card lists no profile.
    private static func offersOutput(_ card: CardInfo) -> Bool? {
        card.profiles.isEmpty ? nil : card.profiles.contains { $0.sinkCount > 0 }
    }

    /// The evidence for a card as a whole, for a card listed without usable ports: an input
    /// only when a profile offers a source and none a sink (a card offering neither is no
    /// microphone).
    package init(card: CardInfo) {
        let hasOutput = card.profiles.contains { $0.sinkCount > 0 } || !card.profiles.contains { $0.sourceCount > 0 }
        self.init(direction: hasOutput ? .output : .input, ownerName: card.name, driver: card.driver,
                  properties: card.properties, ownerOffersOutput: Self.offersOutput(card))
    }
}
