import Foundation

/// One entry of a preference list: a kind of device, or one exact device.
///
/// ACB's `setAudioDevice(.bluetooth)` is `.kind(.bluetooth)`; ACB's `.none` (no preference)
/// is the absence of an entry. A kind entry matches only the four personal kinds
/// (``AudioDeviceKind/isSelectableByKind``): HDMI, S/PDIF and virtual devices are used only
/// when a `.device` entry (or a manual selection) names them.
public enum AudioPreference: Hashable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// Any present device of this kind; several are told apart by ``RoutePolicy``'s rules.
    case kind(AudioDeviceKind)
    /// This device and no other.
    case device(AudioDevice.ID)

    /// Reads `bluetooth`, `wiredHeadset` (or `wired-headset`), `speakerphone`, `earpiece` as
    /// kinds and anything else as a device id. `external` and `virtual` are refused: those
    /// are never chosen by kind, so an entry would silently match nothing; name the device.
    public init?(_ description: String) {
        let text = description.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let folded = text.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        if let kind = AudioDeviceKind.allCases.first(where: { $0.rawValue.lowercased() == folded }) {
            guard kind.isSelectableByKind else { return nil }
            self = .kind(kind)
        } else {
            self = .device(AudioDevice.ID(rawValue: text))
        }
    }

    /// The kind's name, or the device id.
    public var description: String {
        switch self {
        case .kind(let kind): kind.rawValue
        case .device(let id): id.rawValue
        }
    }

    /// Whether `device` satisfies this entry.
    public func matches(_ device: AudioDevice) -> Bool {
        switch self {
        case .kind(let kind): kind.isSelectableByKind && device.kind == kind
        case .device(let id): device.id == id
        }
    }
}
