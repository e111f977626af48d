import PulseAudio
import TextSupport

/// What the parentheses of a port or profile line say, in any `pactl` or `pacmd` version and
/// language: `type: Headphones, priority: 9900, latency offset: 0 usec, availability group:
/// Legacy 1, not available` (pactl 14+), `priority: 9900, available` (pactl 2–13), `priority. 9900`
/// (pactl 0.9–1.1), `priority 9900, latency offset 0 usec, available: no` (pacmd), `sinks: 1,
/// sources: 0, priority: 6500, available: yes` (card profiles).
///
/// Labels are looked up in every language; an unknown label's value is placed by its shape
/// (numbers by position, port type names, availability phrases, else the availability group).
/// An unknown phrase without label is an availability the vocabulary lacks: left unknown.
struct EntryAttributes: Sendable {
    /// `priority`.
    var priority: UInt32?
    /// A port's `type` (PulseAudio 14+).
    var type: DevicePortType?
    /// A card port's `latency offset`, in microseconds.
    var latencyOffset: Int64?
    /// A port's `availability group` (PulseAudio 14+).
    var availabilityGroup: String?
    /// A port's availability; nil when the line printed none.
    var availability: PortAvailability?
    /// A profile's `sinks` count.
    var sinks: UInt32?
    /// A profile's `sources` count.
    var sources: UInt32?
    /// A profile's `available: yes|no`; nil when not printed or `unknown`.
    var isAvailable: Bool?

    /// Reads the contents of the parentheses of a profile line (`forProfile`) or a port line.
    init(_ text: String, forProfile: Bool) {
        var numbers: [Int64] = []
        var words: [String] = []
        for (label, value) in Self.items(text) {
            if let label, let concept = PactlVocabulary.attribute(label) {
                assign(value, to: concept)
            } else if let number = Self.leadingNumber(value) {
                numbers.append(number)
            } else if label == nil, let availability = PactlVocabulary.availability(value) {
                self.availability = availability
            } else if let type = PactlVocabulary.portType(value), type != .unknown {
                self.type = type
            } else if label != nil, let yes = PactlVocabulary.yesNo(value) {
                assign(yes ? "yes" : "no", to: .available)
            } else if label != nil {
                words.append(value)
            }
        }
        if forProfile {
            if sinks == nil, sources == nil, numbers.count >= 2 {
                sinks = UInt32(exactly: numbers[0])
                sources = UInt32(exactly: numbers[1])
                numbers.removeFirst(2)
            }
            if priority == nil, let first = numbers.first {
                priority = UInt32(exactly: first)
            }
        } else {
            if priority == nil, let first = numbers.first {
                priority = UInt32(exactly: first)
            }
            if availabilityGroup == nil, let first = words.first {
                availabilityGroup = first
            }
        }
    }

    /// Whether the contents of a line's parentheses are a profile's (sink and source counts)
    /// rather than a port's.
    static func looksLikeProfile(_ text: String) -> Bool {
        let items = items(text)
        if items.contains(where: { item in
            item.label.map { [.sinks, .sources].contains(PactlVocabulary.attribute($0)) } ?? false
        }) {
            return true
        }
        return items.count >= 3 && items.prefix(2).allSatisfy { leadingNumber($0.value) != nil }
    }

    private mutating func assign(_ value: String, to concept: AttributeConcept) {
        switch concept {
        case .type:
            type = PactlVocabulary.portType(value) ?? .unknown
        case .priority:
            priority = Self.leadingNumber(value).flatMap { UInt32(exactly: $0) }
        case .latencyOffset:
            latencyOffset = Self.leadingNumber(value)
        case .availabilityGroup:
            availabilityGroup = value
        case .sinks:
            sinks = Self.leadingNumber(value).flatMap { UInt32(exactly: $0) }
        case .sources:
            sources = Self.leadingNumber(value).flatMap { UInt32(exactly: $0) }
        case .available:
            availability = PactlVocabulary.availability(value)
                ?? PactlVocabulary.yesNo(value).map { $0 ? .available : .unavailable }
            isAvailable = PactlVocabulary.yesNo(value) ?? availability.flatMap {
                $0 == .unknown ? nil : $0 == .available
            }
        }
    }

    /// The comma-separated items, each as an optional label and a value: `type: Mic`,
    /// `priority 9900` (pacmd), `priority. 9900` (old pactl), `not available` (no label).
    static func items(_ text: String) -> [(label: String?, value: String)] {
        separated(text).compactMap { raw in
            let item = raw.trimmingWhitespace()
            guard !item.isEmpty else { return nil }
            if let (label, value) = item.split(atFirst: ": ") ?? item.split(atFirst: "：") {
                return (String(label), String(value))
            }
            let words = item.split(separator: " ")
            if let numberAt = words.firstIndex(where: { leadingNumber($0) != nil }), numberAt > 0 {
                let label = words[..<numberAt].joined(separator: " ")
                let trimmedLabel = label.hasSuffix(".") ? String(label.dropLast()) : label
                return (trimmedLabel, words[numberAt...].joined(separator: " "))
            }
            return (nil, String(item))
        }
    }

    /// The text split at `,`, `，` and `、`.
    private static func separated(_ text: String) -> [Substring] {
        let cuts: [(Int, Int)] = text.withUTF8Bytes { bytes in
            var cuts: [(Int, Int)] = []
            var position = 0
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: ",") {
                    cuts.append((position, 1))
                } else if position + 2 < bytes.count,
                          (bytes[position] == 0xEF && bytes[position + 1] == 0xBC && bytes[position + 2] == 0x8C)
                            || (bytes[position] == 0xE3 && bytes[position + 1] == 0x80 && bytes[position + 2] == 0x81) {
                    cuts.append((position, 3))
                }
                position += 1
            }
            return cuts
        }
        let utf8 = text.utf8
        var pieces: [Substring] = []
        var start = utf8.startIndex
        for (offset, width) in cuts {
            let cut = utf8.index(utf8.startIndex, offsetBy: offset)
            pieces.append(text[start..<cut])
            start = utf8.index(cut, offsetBy: width)
        }
        pieces.append(text[start...])
        return pieces
    }

    /// The integer a value starts with (`9900`, `0 usec`, `-1500 usec`), nil when it does not.
    static func leadingNumber(_ value: some StringProtocol) -> Int64? {
        Int64(value.prefix { $0 == "-" || ($0.isASCII && $0.isNumber) })
    }
}
