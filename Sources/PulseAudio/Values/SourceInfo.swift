/// A source: somewhere audio can be recorded from (`pa_source_info`), as a snapshot.
public struct SourceInfo: Hashable, Sendable, Identifiable {
    /// The server's index; it changes when the source is recreated, the name does not.
    public var index: UInt32
    /// The stable name, for example `alsa_input.pci-0000_00_1f.3.analog-stereo`.
    public var name: String
    /// What a person reads.
    public var description: String
    /// The driver.
    public var driver: String
    /// The module that owns it, nil for none.
    public var ownerModule: UInt32?
    /// The card it belongs to, nil for none.
    public var card: UInt32?
    /// Whether it is muted.
    public var isMuted: Bool
    /// Its volume, per channel.
    public var volume: ChannelVolumes
    /// The volume the hardware considers 0 dB.
    public var baseVolume: UInt32
    /// For a monitor source, the name of the sink it monitors; nil for a real input.
    public var monitorOfSinkName: String?
    /// Running, idle or suspended.
    public var state: DeviceState
    /// Its ports, in server order.
    public var ports: [DevicePort]
    /// The name of the port in use, nil when it has none.
    public var activePortName: String?
    /// Its property list.
    public var properties: [String: String]

    /// The source's ``index``.
    public var id: UInt32 { index }
    /// The port in use, when it has one.
    public var activePort: DevicePort? { ports.first { $0.name == activePortName } }
    /// Whether this is a sink's monitor rather than an input.
    public var isMonitor: Bool { monitorOfSinkName != nil || properties["device.class"] == "monitor" }

    /// A source from its parts.
    public init(index: UInt32, name: String, description: String, driver: String, ownerModule: UInt32?,
                card: UInt32?, isMuted: Bool, volume: ChannelVolumes, baseVolume: UInt32,
                monitorOfSinkName: String?, state: DeviceState, ports: [DevicePort],
                activePortName: String?, properties: [String: String]) {
        self.index = index
        self.name = name
        self.description = description
        self.driver = driver
        self.ownerModule = ownerModule
        self.card = card
        self.isMuted = isMuted
        self.volume = volume
        self.baseVolume = baseVolume
        self.monitorOfSinkName = monitorOfSinkName
        self.state = state
        self.ports = ports
        self.activePortName = activePortName
        self.properties = properties
    }
}
