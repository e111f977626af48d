/// Which devices an ``AudioDeviceManager`` may choose by itself, and how long a device that
/// appears must stay before the preferences switch to it.
///
/// "By itself" means through a kind entry of the preferences (`bluetooth` picks a Bluetooth
/// device): ``never`` and ``only`` narrow what a kind entry may pick. A preference entry that
/// names one device exactly, and a manual selection (``AudioDeviceManager/select(_:)``), are
/// a person's own choice and pass. The ``holdOff`` applies to every preference entry, never
/// to a manual selection:
///
/// ```swift
/// await manager.setAutomaticChoice(AutomaticChoice(
///     never: ["bluez_card.00_11_22_33_44_55"],   // the neighbour's headset, whatever its port
///     holdOff: .seconds(2)))                    // a device must stay 2 s before audio moves to it
/// ```
public struct AutomaticChoice: Hashable, Sendable {
    /// Devices a kind entry never chooses.
    public var never: [DeviceMatch]
    /// When not empty, the only devices a kind entry may choose.
    public var only: [DeviceMatch]
    /// How long a device that appeared, or became usable, must stay before a preference entry
    /// switches to it, so that a flapping device (a Bluetooth reconnect storm) cannot move the
    /// route faster than it settles. Zero (the default) switches at once. Leaving a device
    /// that went away is never held back.
    public var holdOff: Duration

    /// Rules from their parts; the defaults restrict nothing and hold nothing back.
    public init(never: [DeviceMatch] = [], only: [DeviceMatch] = [], holdOff: Duration = .zero) {
        self.never = never
        self.only = only
        self.holdOff = holdOff
    }

    /// Whether a kind entry may choose `device`: it matches nothing in ``never`` and, when
    /// ``only`` lists devices, something there.
    package func mayChooseByKind(_ device: AudioDevice) -> Bool {
        guard !never.contains(where: { $0.matches(device) }) else { return false }
        return only.isEmpty || only.contains { $0.matches(device) }
    }
}

/// One device by its id, or every device of one card by the card's name: what
/// ``AutomaticChoice`` lists. `bluez_card.00_11_22_33_44_55` names a Bluetooth headset
/// whichever profile and port it is on; `bluez_card.00_11_22_33_44_55/headset-output` one
/// of its devices.
public struct DeviceMatch: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The device id or card name, as `routectl list --json` shows them (`id`, `card`).
    public var name: String

    /// A match for the device id or card name `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// A match for the device id or card name `value`.
    public init(stringLiteral value: String) {
        self.name = value
    }

    /// Whether `device` has this id, or belongs to this card.
    package func matches(_ device: AudioDevice) -> Bool {
        device.id.rawValue == name || device.card == name
    }

    /// The name.
    public var description: String { name }
}
