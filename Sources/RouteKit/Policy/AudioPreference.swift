import FoundationEssentials
import TextSupport

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
        let text = description.trimmingWhitespace()
        guard !text.isEmpty else { return nil }
        let folded = text.lowercased().filter { $0 != "-" && $0 != "_" }
        if let kind = AudioDeviceKind.allCases.first(where: { $0.rawValue.lowercased() == folded }) {
            guard kind.isSelectableByKind else { return nil }
            self = .kind(kind)
        } else {
            self = .device(AudioDevice.ID(rawValue: text))
        }
    }

    /// The kind `text` is most likely a misspelling of (at most two letters off, ignoring
    /// case, `-` and `_`), when it does not look like a device id (ids hold `.`, `/` or `:`).
    /// `bluetoth` gives `bluetooth`; `alsa_card.pci-0000_00_1f.3/analog-output` gives nil.
    public static func misspelledKind(_ text: String) -> AudioDeviceKind? {
        guard !text.contains(where: { $0 == "." || $0 == "/" || $0 == ":" }) else { return nil }
        let folded = Self.fold(text)
        guard !folded.isEmpty, AudioDeviceKind.allCases.allSatisfy({ Self.fold($0.rawValue) != folded }) else { return nil }
        return AudioDeviceKind.allCases.filter(\.isSelectableByKind)
            .map { ($0, Spelling.distance(folded, Self.fold($0.rawValue))) }
            .filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    private static func fold(_ text: String) -> String {
        text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
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
