/// A card: one piece of hardware with profiles and ports (`pa_card_info`), as a snapshot.
public struct CardInfo: Hashable, Sendable, Identifiable {
    /// A card profile: one way of using the card (`output:analog-stereo`, `a2dp-sink`,
    /// `headset-head-unit`, ...).
    public struct Profile: Hashable, Sendable {
        /// The profile's name.
        public var name: String
        /// What a person reads.
        public var description: String
        /// How many sinks it creates.
        public var sinkCount: UInt32
        /// How many sources it creates.
        public var sourceCount: UInt32
        /// The higher, the more useful as a default.
        public var priority: UInt32
        /// Whether it can be selected now.
        public var isAvailable: Bool

        /// A profile from its parts.
        public init(name: String, description: String, sinkCount: UInt32, sourceCount: UInt32,
                    priority: UInt32, isAvailable: Bool) {
            self.name = name
            self.description = description
            self.sinkCount = sinkCount
            self.sourceCount = sourceCount
            self.priority = priority
            self.isAvailable = isAvailable
        }
    }

    /// The directions a card port serves.
    public struct Direction: OptionSet, Hashable, Sendable {
        /// The raw `pa_direction_t` bits.
        public let rawValue: Int32
        /// Wraps raw `pa_direction_t` bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Playback.
        public static let output = Direction(rawValue: 1)
        /// Capture.
        public static let input = Direction(rawValue: 2)
    }

    /// A port as the card lists it: with its direction, the profiles that offer it and its
    /// own properties, whichever profile is active.
    public struct Port: Hashable, Sendable {
        /// The port's name.
        public var name: String
        /// What a person reads.
        public var description: String
        /// The higher, the more useful as a default.
        public var priority: UInt32
        /// Whether it can be used now.
        public var availability: PortAvailability
        /// What it physically is.
        public var type: DevicePortType
        /// Ports sharing one jack's detection share a group (nil: in no group).
        public var availabilityGroup: String?
        /// Output, input, or both.
        public var direction: Direction
        /// The names of the profiles that offer it.
        public var profileNames: [String]
        /// Its property list.
        public var properties: [String: String]
        /// Extra latency the server adds when it is in use, in microseconds.
        public var latencyOffset: Int64

        /// A card port from its parts.
        public init(name: String, description: String, priority: UInt32, availability: PortAvailability,
                    type: DevicePortType, availabilityGroup: String?, direction: Direction,
                    profileNames: [String], properties: [String: String], latencyOffset: Int64) {
            self.name = name
            self.description = description
            self.priority = priority
            self.availability = availability
            self.type = type
            self.availabilityGroup = availabilityGroup
            self.direction = direction
            self.profileNames = profileNames
            self.properties = properties
            self.latencyOffset = latencyOffset
        }
    }

    /// The server's index.
    public var index: UInt32
    /// The stable name, for example `alsa_card.pci-0000_00_1f.3` or `bluez_card.00_1B_66_...`.
    public var name: String
    /// The driver.
    public var driver: String
    /// The module that owns it, nil for none.
    public var ownerModule: UInt32?
    /// Every profile, in server order.
    public var profiles: [Profile]
    /// The name of the active profile, nil when none is.
    public var activeProfileName: String?
    /// Every port, in server order.
    public var ports: [Port]
    /// Its property list.
    public var properties: [String: String]

    /// The card's ``index``.
    public var id: UInt32 { index }
    /// The active profile, when there is one.
    public var activeProfile: Profile? { profiles.first { $0.name == activeProfileName } }

    /// A card from its parts.
    public init(index: UInt32, name: String, driver: String, ownerModule: UInt32?, profiles: [Profile],
                activeProfileName: String?, ports: [Port], properties: [String: String]) {
        self.index = index
        self.name = name
        self.driver = driver
        self.ownerModule = ownerModule
        self.profiles = profiles
        self.activeProfileName = activeProfileName
        self.ports = ports
        self.properties = properties
    }
}
