import PulseAudio

/// A card to plug into a ``SimulatedServer``: its ports, its profiles and the sinks and
/// sources each profile creates. Presets for common hardware are static members
/// (``bluetoothHeadset(address:name:headsetProfile:activeProfile:)``, ``laptopAnalog(headphonesPlugged:)``,
/// ``usbHeadset(serial:name:)``, ``hdmi(connected:)``).
///
/// ```swift
/// let headset = CardBlueprint.bluetoothHeadset(address: "00:1B:66:AA:BB:CC", name: "WH-1000XM4")
/// try server.addCard(headset)
/// try await server.setCardProfile(headset.name, profile: "headset_head_unit")
/// ```
public struct CardBlueprint: Hashable, Sendable {
    /// How the card's driver behaves where PulseAudio's drivers differ.
    public enum Behavior: Hashable, Sendable {
        /// `module-alsa-card`: a profile switch keeps the sinks and sources both profiles share
        /// (same name) and carries the streams of removed ones over to the new profile's first
        /// sink or source; jack changes update profile availability; any profile can be selected.
        case alsa
        /// `module-bluez5-device`: a profile switch removes the old sink and source (their
        /// streams go to the default device) before creating the new ones; switching to an
        /// unavailable profile is refused with `PA_ERR_IO` ("Refused to switch profile to %s:
        /// Not connected"); `module-switch-on-port-available` leaves the card alone.
        case bluetooth
    }

    /// A port of the card.
    public struct Port: Hashable, Sendable {
        /// Its name, for example `analog-output-headphones`.
        public var name: String
        /// What a person reads.
        public var description: String
        /// The higher, the more useful.
        public var priority: UInt32
        /// Whether it can be used now (a jack: plugged in or not).
        public var availability: PortAvailability
        /// What it physically is.
        public var type: DevicePortType
        /// Ports sharing one jack's detection share a group and change availability together.
        public var availabilityGroup: String?
        /// Output or input (one of the two).
        public var direction: CardInfo.Direction
        /// Its own properties.
        public var properties: [String: String]
        /// Extra latency, in microseconds.
        public var latencyOffset: Int64
        /// The profiles that offer it; nil derives them: the profiles creating a device of its
        /// direction that lists it.
        public var profileNames: [String]?

        /// A card port.
        public init(name: String, description: String, priority: UInt32 = 0,
                    availability: PortAvailability = .unknown, type: DevicePortType = .unknown,
                    availabilityGroup: String? = nil, direction: CardInfo.Direction,
                    properties: [String: String] = [:], latencyOffset: Int64 = 0, profileNames: [String]? = nil) {
            self.name = name
            self.description = description
            self.priority = priority
            self.availability = availability
            self.type = type
            self.availabilityGroup = availabilityGroup
            self.direction = direction
            self.properties = properties
            self.latencyOffset = latencyOffset
            self.profileNames = profileNames
        }
    }

    /// A profile of the card and the devices it creates.
    public struct Profile: Hashable, Sendable {
        /// Its name, for example `a2dp_sink` or `output:analog-stereo+input:analog-stereo`.
        public var name: String
        /// What a person reads.
        public var description: String
        /// The higher, the more useful.
        public var priority: UInt32
        /// Whether it can be selected now.
        public var isAvailable: Bool
        /// The sinks it creates, in order.
        public var sinks: [DeviceBlueprint]
        /// The sources it creates, in order (monitors come with the sinks).
        public var sources: [DeviceBlueprint]

        /// A profile.
        public init(name: String, description: String, priority: UInt32 = 0, isAvailable: Bool = true,
                    sinks: [DeviceBlueprint] = [], sources: [DeviceBlueprint] = []) {
            self.name = name
            self.description = description
            self.priority = priority
            self.isAvailable = isAvailable
            self.sinks = sinks
            self.sources = sources
        }

        /// The profile every card has: no sinks, no sources.
        public static let off = Profile(name: "off", description: "Off")
    }

    /// A jack with detection: plugging or unplugging it changes the availability of some
    /// ports at once (PulseAudio's `pa_alsa_jack` with each path's `state.plugged` and
    /// `state.unplugged`; a laptop's headphone jack makes the headphones available and the
    /// speakers unavailable).
    public struct Jack: Hashable, Sendable {
        /// Its name, for example `Headphone`.
        public var name: String
        /// Port availabilities while something is plugged in, by port name.
        public var whenPlugged: [String: PortAvailability]
        /// Port availabilities while nothing is plugged in, by port name.
        public var whenUnplugged: [String: PortAvailability]

        /// A jack.
        public init(name: String, whenPlugged: [String: PortAvailability], whenUnplugged: [String: PortAvailability]) {
            self.name = name
            self.whenPlugged = whenPlugged
            self.whenUnplugged = whenUnplugged
        }
    }

    /// The card's name, for example `bluez_card.00_1B_66_AA_BB_CC`.
    public var name: String
    /// The driver it reports, for example `module-alsa-card.c`.
    public var driver: String
    /// Its properties.
    public var properties: [String: String]
    /// Its ports, in server order.
    public var ports: [Port]
    /// Its profiles, in server order.
    public var profiles: [Profile]
    /// The profile it starts with; nil picks PulseAudio's way: the highest-priority available one.
    public var activeProfile: String?
    /// Its jacks with detection (``SimulatedServer/setJack(card:jack:plugged:)``).
    public var jacks: [Jack]
    /// Where its driver's behaviour matters.
    public var behavior: Behavior
    /// The module that owns it (`module-alsa-card`, `module-bluez5-device`).
    public var moduleName: String
    /// That module's argument.
    public var moduleArgument: String

    /// A card. `behavior` defaults from `driver` (`module-bluez5-device.c` is ``Behavior/bluetooth``).
    public init(name: String, driver: String = "module-alsa-card.c", properties: [String: String] = [:],
                ports: [Port] = [], profiles: [Profile], activeProfile: String? = nil, jacks: [Jack] = [],
                behavior: Behavior? = nil, moduleName: String? = nil, moduleArgument: String = "") {
        let behavior = behavior ?? (driver.hasPrefix("module-bluez") ? .bluetooth : .alsa)
        self.name = name
        self.driver = driver
        self.properties = properties
        self.ports = ports
        self.profiles = profiles
        self.activeProfile = activeProfile
        self.jacks = jacks
        self.behavior = behavior
        self.moduleName = moduleName ?? (behavior == .bluetooth ? "module-bluez5-device" : "module-alsa-card")
        self.moduleArgument = moduleArgument
    }

    /// The names of the sinks `profile` creates (empty for an unknown profile).
    public func sinkNames(in profile: String) -> [String] {
        profiles.first { $0.name == profile }?.sinks.map(\.name) ?? []
    }

    /// The names of the sources `profile` creates, monitors excluded (empty for an unknown profile).
    public func sourceNames(in profile: String) -> [String] {
        profiles.first { $0.name == profile }?.sources.map(\.name) ?? []
    }
}
