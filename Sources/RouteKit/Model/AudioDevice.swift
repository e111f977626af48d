import PulseAudio

/// A device as a person sees it: an output (a sink and its port) paired with the input that
/// goes with it (a source and its port) — a headset's microphone with its speakers, a
/// laptop's built-in microphone with its speakers, headphones without a microphone with the
/// built-in microphone.
public struct AudioDevice: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// A stable identity: the same headset unplugged and plugged again keeps it. Built from
    /// the card's name (which PulseAudio and PipeWire derive from the Bluetooth address or
    /// the USB serial) and the port, or from the sink's name for devices without a card.
    public struct ID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The identity as text, for example `bluez_card.00_1B_66_AA_BB_CC/headset-output`.
        public let rawValue: String
        /// Wraps an identity.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps an identity.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The identity as text.
        public var description: String { rawValue }
    }

    /// One direction of a device: where its audio goes or comes from.
    public struct Endpoint: Hashable, Sendable {
        /// The sink (output) or source (input) that carries it now; nil when the card's
        /// active profile does not offer it (``AudioDevice/requiredProfile`` says which does).
        public var deviceName: String?
        /// The port to select on it, nil for devices without ports.
        public var port: String?
        /// The card profile that offers it: the active one when that will do, else the best
        /// one that does. Nil for devices without a card.
        public var profile: String?
        /// What a person reads for this direction.
        public var description: String

        /// An endpoint from its parts.
        public init(deviceName: String?, port: String?, profile: String? = nil, description: String) {
            self.deviceName = deviceName
            self.port = port
            self.profile = profile
            self.description = description
        }
    }

    /// The stable identity.
    public var id: ID {
        get { storage.fields.id }
        set { set(\.id, newValue) }
    }

    /// Its kind.
    public var kind: AudioDeviceKind {
        get { storage.fields.kind }
        set { set(\.kind, newValue) }
    }

    /// What a person reads, for example `WH-1000XM4` or `Headphones (Built-in Audio)`.
    public var description: String {
        get { storage.fields.description }
        set { set(\.description, newValue) }
    }

    /// `device.bus`: `bluetooth`, `usb`, `pci`, ... when the server says.
    public var bus: String? {
        get { storage.fields.bus }
        set { set(\.bus, newValue) }
    }

    /// `device.form_factor`: `headset`, `internal`, `speaker`, ... when the server says.
    public var formFactor: String? {
        get { storage.fields.formFactor }
        set { set(\.formFactor, newValue) }
    }

    /// Whether it can be used now (a jack with something in it, a connected profile).
    public var availability: PortAvailability {
        get { storage.fields.availability }
        set { set(\.availability, newValue) }
    }

    /// Whether audio goes to it (or comes from it) now: its sink (or, for an input-only
    /// device, its source) is the default, on this port.
    public var isActive: Bool {
        get { storage.fields.isActive }
        set { set(\.isActive, newValue) }
    }

    /// The card it belongs to, nil for devices without one.
    public var card: String? {
        get { storage.fields.card }
        set { set(\.card, newValue) }
    }

    /// Where its audio goes, nil for an input-only device.
    public var output: Endpoint? {
        get { storage.fields.output }
        set { set(\.output, newValue) }
    }

    /// Where its audio comes from, nil when it has no input of its own.
    public var input: Endpoint? {
        get { storage.fields.input }
        set { set(\.input, newValue) }
    }

    /// The card profile to select before it can be used, nil when the active profile will do.
    public var requiredProfile: String? {
        get { storage.fields.requiredProfile }
        set { set(\.requiredProfile, newValue) }
    }

    /// The card profile that carries its output and its input at once, for calls: a
    /// Bluetooth headset's headset profile (HSP/HFP) while it plays in A2DP. Nil when no
    /// profile offers both, or for devices without a card.
    public var callProfile: String? {
        get { storage.fields.callProfile }
        set { set(\.callProfile, newValue) }
    }

    /// A device from its parts.
    public init(id: ID, kind: AudioDeviceKind, description: String, bus: String?, formFactor: String?,
                availability: PortAvailability, isActive: Bool, card: String?, output: Endpoint?,
                input: Endpoint?, requiredProfile: String?, callProfile: String? = nil) {
        storage = Storage(Fields(id: id, kind: kind, description: description, bus: bus, formFactor: formFactor,
                                 availability: availability, isActive: isActive, card: card, output: output,
                                 input: input, requiredProfile: requiredProfile, callProfile: callProfile))
    }

    /// Two devices are equal when every value is; the same storage needs no comparison.
    public static func == (lhs: AudioDevice, rhs: AudioDevice) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every value, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    // MARK: Storage

    /// The values, behind one reference: a device is copied many times per decision (into
    /// lists, tiers, events), and a copy of a dozen strings is a dozen reference counts, where
    /// a copy of this is one. A change replaces it (changes are rare next to copies).
    private var storage: Storage

    private struct Fields: Hashable, Sendable {
        var id: ID
        var kind: AudioDeviceKind
        var description: String
        var bus: String?
        var formFactor: String?
        var availability: PortAvailability
        var isActive: Bool
        var card: String?
        var output: Endpoint?
        var input: Endpoint?
        var requiredProfile: String?
        var callProfile: String?
    }

    /// Immutable, so reading a value needs no exclusivity check (a `var` in a class costs one
    /// at every read, and a decision reads thousands); a change makes a new storage.
    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Sets one value. Setting the value a device has already changes nothing, and copies
    /// nothing: devices rebuilt at every event (their activity marked again) keep sharing
    /// their storage, so comparing them takes one identity check.
    private mutating func set<Value: Equatable>(_ field: WritableKeyPath<Fields, Value>, _ newValue: Value) {
        guard storage.fields[keyPath: field] != newValue else { return }
        var fields = storage.fields
        fields[keyPath: field] = newValue
        storage = Storage(fields)
    }
}
