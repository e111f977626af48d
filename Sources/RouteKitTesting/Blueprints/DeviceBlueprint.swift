import PulseAudio

/// A sink or source to create: on its own (``SimulatedServer/addSink(_:)``, like
/// `module-null-sink`), or as one of the devices a card profile creates
/// (``CardBlueprint/Profile``).
///
/// The server derives what PulseAudio derives in `pa_sink_new` / `pa_source_new`: a card
/// device inherits the card's properties (its own win), `device.icon_name` and
/// `device.intended_roles` follow the form factor and bus, and the priority that picks the
/// default device follows PulseAudio 16's `pa_device_init_priority` unless set here.
public struct DeviceBlueprint: Hashable, Sendable {
    /// The device's name, for example `alsa_output.pci-0000_00_1f.3.analog-stereo`.
    public var name: String
    /// Its properties; for card devices they are merged over the card's.
    public var properties: [String: String]
    /// The card ports it offers, by name, in order (card devices only; a device on its own has
    /// no ports, like a null sink).
    public var ports: [String]
    /// The port it starts on; nil picks PulseAudio's way: the highest-priority port that is
    /// not unavailable.
    public var activePort: String?
    /// How many channels its volume has.
    public var channelCount: Int
    /// The priority used to choose the default device; nil computes PulseAudio's.
    public var priority: UInt32?
    /// The driver it reports; nil takes the card's, or `module-null-sink.c` /
    /// `module-null-source.c` for a device on its own.
    public var driver: String?

    /// A device blueprint. `description` sets `device.description`.
    public init(name: String, description: String? = nil, properties: [String: String] = [:],
                ports: [String] = [], activePort: String? = nil, channelCount: Int = 2,
                priority: UInt32? = nil, driver: String? = nil) {
        self.name = name
        var properties = properties
        if let description { properties["device.description"] = description }
        self.properties = properties
        self.ports = ports
        self.activePort = activePort
        self.channelCount = channelCount
        self.priority = priority
        self.driver = driver
    }
}
