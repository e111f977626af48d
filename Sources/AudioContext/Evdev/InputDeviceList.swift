import FoundationEssentials
import Glibc
import TextSupport

/// One input device as `/proc/bus/input/devices` lists it: its name, its event node, and
/// which keys it has (the `B: KEY=` bitmap).
public struct InputDevice: Hashable, Sendable {
    /// `N: Name="..."`.
    public var name: String
    /// The `eventN` handler of `H: Handlers=`, nil when it has none.
    public var eventHandler: String?
    /// The key codes its `B: KEY=` bitmap sets.
    public var keys: Set<UInt16>

    /// A device from its parts.
    public init(name: String, eventHandler: String?, keys: Set<UInt16>) {
        self.name = name
        self.eventHandler = eventHandler
        self.keys = keys
    }

    /// `/dev/input/eventN`, nil without an event handler.
    public var devicePath: String? { eventHandler.map { "/dev/input/" + $0 } }

    /// Whether it has a volume key (`KEY_VOLUMEUP`, `KEY_VOLUMEDOWN` or `KEY_MUTE`).
    public var hasVolumeKeys: Bool {
        !keys.isDisjoint(with: [InputEvent.keyVolumeUp, InputEvent.keyVolumeDown, InputEvent.keyMute])
    }

    /// The devices in the text of `/proc/bus/input/devices` (blocks separated by blank lines).
    /// The `KEY=` bitmap is hexadecimal words, most significant first, each as wide as the
    /// kernel's `long` (64 bits here).
    public static func parse(_ text: String) -> [InputDevice] {
        var devices: [InputDevice] = []
        var current: InputDevice?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingWhitespace().isEmpty {
                if let device = current { devices.append(device) }
                current = nil
                continue
            }
            var device = current ?? InputDevice(name: "", eventHandler: nil, keys: [])
            if line.hasPrefix("N: Name=") {
                device.name = String(line.dropFirst("N: Name=".count)).trimming { $0 == "\"" }
            } else if line.hasPrefix("H: Handlers=") {
                device.eventHandler = line.dropFirst("H: Handlers=".count).split(separator: " ")
                    .first { $0.hasPrefix("event") }.map(String.init)
            } else if line.hasPrefix("B: KEY=") {
                device.keys = keyBits(String(line.dropFirst("B: KEY=".count)))
            }
            current = device
        }
        if let device = current { devices.append(device) }
        return devices
    }

    /// The set bits of a bitmap printed as 64-bit hexadecimal words, most significant first.
    static func keyBits(_ bitmap: String) -> Set<UInt16> {
        var bits: Set<UInt16> = []
        for (wordIndex, word) in bitmap.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { continue }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 {
                bits.insert(UInt16(clamping: wordIndex * 64 + bit))
            }
        }
        return bits
    }
}

/// Whether evdev can give volume keys here, and from which devices.
public enum EvdevAvailability: Hashable, Sendable, CustomStringConvertible {
    /// These devices have volume keys and this process can read them.
    case available([InputDevice])
    /// No device can be read, and why: for people.
    case unavailable(String)

    /// Looks for devices with volume keys in `devicesFile` and tries to open each one's
    /// event node (read-only, at once closed again).
    public static func check(devicesFile: String = "/proc/bus/input/devices") -> EvdevAvailability {
        guard let text = try? String(contentsOfFile: devicesFile, encoding: .utf8) else {
            return .unavailable("\(devicesFile) cannot be read")
        }
        let candidates = InputDevice.parse(text).filter { $0.hasVolumeKeys && $0.devicePath != nil }
        guard !candidates.isEmpty else {
            return .unavailable("no input device with volume keys in \(devicesFile)")
        }
        var readable: [InputDevice] = []
        var refusals: [String] = []
        for device in candidates {
            guard let path = device.devicePath else { continue }
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 {
                close(descriptor)
                readable.append(device)
            } else {
                refusals.append("\(path) (\(device.name)): \(String(cString: strerror(errno)))")
            }
        }
        guard !readable.isEmpty else {
            return .unavailable("no readable device with volume keys: " + refusals.joined(separator: "; "))
        }
        return .available(readable)
    }

    /// For example `unavailable: no input device with volume keys in /proc/bus/input/devices`.
    public var description: String {
        switch self {
        case .available(let devices): "available: " + devices.compactMap(\.devicePath).joined(separator: ", ")
        case .unavailable(let reason): "unavailable: " + reason
        }
    }
}
