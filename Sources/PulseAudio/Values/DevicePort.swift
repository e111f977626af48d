import CPulseAudio

/// Whether a port can be used now: a jack with something plugged in, a Bluetooth profile
/// that is connected (`pa_port_available_t`).
public enum PortAvailability: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The server cannot tell (no jack detection).
    case unknown
    /// Nothing is plugged in / the port cannot be used.
    case unavailable
    /// Plugged in / usable.
    case available

    init(_ raw: Int32) {
        switch UInt32(bitPattern: raw) {
        case PA_PORT_AVAILABLE_YES.rawValue: self = .available
        case PA_PORT_AVAILABLE_NO.rawValue: self = .unavailable
        default: self = .unknown
        }
    }

    /// The raw value's name.
    public var description: String { rawValue }
}

/// What a port physically is, as the server reports it (`pa_device_port_type_t`,
/// PulseAudio 14 and later; older servers and pipewire-pulse often say ``unknown``).
public struct DevicePortType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric `PA_DEVICE_PORT_TYPE_*` value.
    public let rawValue: UInt32
    /// Wraps a numeric `PA_DEVICE_PORT_TYPE_*` value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ type: pa_device_port_type_t) { self.rawValue = type.rawValue }

    /// Not known.
    public static let unknown = DevicePortType(PA_DEVICE_PORT_TYPE_UNKNOWN)
    /// Auxiliary.
    public static let aux = DevicePortType(PA_DEVICE_PORT_TYPE_AUX)
    /// A loudspeaker.
    public static let speaker = DevicePortType(PA_DEVICE_PORT_TYPE_SPEAKER)
    /// Headphones.
    public static let headphones = DevicePortType(PA_DEVICE_PORT_TYPE_HEADPHONES)
    /// Line in or out.
    public static let line = DevicePortType(PA_DEVICE_PORT_TYPE_LINE)
    /// A microphone.
    public static let mic = DevicePortType(PA_DEVICE_PORT_TYPE_MIC)
    /// A headset (speakers and microphone).
    public static let headset = DevicePortType(PA_DEVICE_PORT_TYPE_HEADSET)
    /// A handset.
    public static let handset = DevicePortType(PA_DEVICE_PORT_TYPE_HANDSET)
    /// A phone earpiece.
    public static let earpiece = DevicePortType(PA_DEVICE_PORT_TYPE_EARPIECE)
    /// S/PDIF.
    public static let spdif = DevicePortType(PA_DEVICE_PORT_TYPE_SPDIF)
    /// HDMI.
    public static let hdmi = DevicePortType(PA_DEVICE_PORT_TYPE_HDMI)
    /// TV.
    public static let tv = DevicePortType(PA_DEVICE_PORT_TYPE_TV)
    /// Radio.
    public static let radio = DevicePortType(PA_DEVICE_PORT_TYPE_RADIO)
    /// Video.
    public static let video = DevicePortType(PA_DEVICE_PORT_TYPE_VIDEO)
    /// USB.
    public static let usb = DevicePortType(PA_DEVICE_PORT_TYPE_USB)
    /// Bluetooth.
    public static let bluetooth = DevicePortType(PA_DEVICE_PORT_TYPE_BLUETOOTH)
    /// Portable.
    public static let portable = DevicePortType(PA_DEVICE_PORT_TYPE_PORTABLE)
    /// Hands-free.
    public static let handsfree = DevicePortType(PA_DEVICE_PORT_TYPE_HANDSFREE)
    /// Car.
    public static let car = DevicePortType(PA_DEVICE_PORT_TYPE_CAR)
    /// Hi-fi.
    public static let hifi = DevicePortType(PA_DEVICE_PORT_TYPE_HIFI)
    /// Phone.
    public static let phone = DevicePortType(PA_DEVICE_PORT_TYPE_PHONE)
    /// Network.
    public static let network = DevicePortType(PA_DEVICE_PORT_TYPE_NETWORK)
    /// Analog.
    public static let analog = DevicePortType(PA_DEVICE_PORT_TYPE_ANALOG)

    private static let names: [UInt32: String] = [
        0: "Unknown", 1: "Aux", 2: "Speaker", 3: "Headphones", 4: "Line", 5: "Mic",
        6: "Headset", 7: "Handset", 8: "Earpiece", 9: "SPDIF", 10: "HDMI", 11: "TV",
        12: "Radio", 13: "Video", 14: "USB", 15: "Bluetooth", 16: "Portable",
        17: "Handsfree", 18: "Car", 19: "HiFi", 20: "Phone", 21: "Network", 22: "Analog",
    ]

    /// The name `pactl` prints for it, for example `Headphones`.
    public var description: String { Self.names[rawValue] ?? "Type \(rawValue)" }
}

/// A port of a sink or source: one connector or route on the device (`pa_sink_port_info`,
/// `pa_source_port_info`).
public struct DevicePort: Hashable, Sendable {
    /// The port's name, for example `analog-output-headphones` or `[Out] Speaker`.
    public var name: String
    /// What a person reads, for example `Headphones`.
    public var description: String
    /// The higher, the more useful as a default.
    public var priority: UInt32
    /// Whether it can be used now.
    public var availability: PortAvailability
    /// What it physically is.
    public var type: DevicePortType
    /// Ports sharing one jack's detection share a group (nil: in no group).
    public var availabilityGroup: String?

    /// A port from its parts.
    public init(name: String, description: String, priority: UInt32, availability: PortAvailability,
                type: DevicePortType, availabilityGroup: String?) {
        self.name = name
        self.description = description
        self.priority = priority
        self.availability = availability
        self.type = type
        self.availabilityGroup = availabilityGroup
    }
}
