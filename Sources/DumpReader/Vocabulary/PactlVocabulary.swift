import PulseAudio
import TextSupport

/// What a block heading such as `Sink #3` or `Karte #0` introduces.
enum HeadingKind: String, Sendable {
    /// A sink.
    case sink
    /// A source.
    case source
    /// A card.
    case card
    /// Anything RouteKit skips: sink inputs, source outputs, modules, clients, samples.
    case other
}

/// What a field or section label of `pactl` or `pacmd` means, whatever its language.
enum FieldConcept: String, Sendable {
    case state, name, description, driver, sampleSpec, channelMap, ownerModule, mute, volume
    case baseVolume, monitorSource, monitorOfSink, latency, flags, properties, ports, activePort
    case formats, profiles, activeProfile, partOfProfiles, defaultSink, defaultSource
    /// `pacmd` only: `card: 0 <alsa_card...>`, `index: 3`, a card's `sinks:` and `sources:`.
    case card, index, sinks, sources
}

/// What a label inside a port or profile line's parentheses means.
enum AttributeConcept: String, Sendable {
    case type, priority, latencyOffset, availabilityGroup, sinks, sources, available
}

/// The words `pactl` and `pacmd` print, in every language PulseAudio has been translated to:
/// the fast path for labels. Structure decides when a word is not here.
enum PactlVocabulary {
    /// The kind a heading word announces (`sink`, `Ziel`, `Destination`...), nil when unknown.
    static func heading(_ word: some StringProtocol) -> HeadingKind? {
        headings[key(word)]
    }

    /// The concept a field label names (`Name`, `Beschreibung`, `active port`...).
    static func field(_ label: some StringProtocol) -> FieldConcept? {
        fields[key(label)]
    }

    /// The concept a port or profile attribute label names (`priority`, `Priorität`...).
    static func attribute(_ label: some StringProtocol) -> AttributeConcept? {
        attributes[key(label)]
    }

    /// The port type a name stands for (`Headphones`, `Kopfhörer`, `headphones`...).
    static func portType(_ word: some StringProtocol) -> DevicePortType? {
        portTypes[key(word)]
    }

    /// The availability a phrase states (`available`, `nicht verfügbar`, `unknown`...).
    static func availability(_ phrase: some StringProtocol) -> PortAvailability? {
        availabilities[key(phrase)]
    }

    /// Whether a word says yes (`yes`, `ja`, `oui`) or no; nil for neither.
    static func yesNo(_ word: some StringProtocol) -> Bool? {
        yesNoWords[key(word)]
    }

    /// Whether a word is `n/a` in some language.
    static func isNotApplicable(_ word: some StringProtocol) -> Bool {
        notApplicableWords.contains(key(word))
    }

    /// The lookup form of a label or word: lowercased, trimmed, without a trailing colon.
    static func key(_ text: some StringProtocol) -> String {
        let ascii: String? = String(text).withUTF8Bytes { bytes in
            var start = 0
            var end = bytes.count
            while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
            while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 || bytes[end - 1] == 58 { end -= 1 }
            var position = start
            while position < end {
                if bytes[position] >= 0x80 { return nil }
                position += 1
            }
            return String(unsafeUninitializedCapacity: end - start) { buffer in
                var position = start
                while position < end {
                    let byte = bytes[position]
                    buffer[position - start] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                    position += 1
                }
                return end - start
            }
        }
        if let ascii {
            return ascii
        }
        var result = text.lowercased()
        if result.contains("\u{00A0}") {
            result = String(result.map { $0 == "\u{00A0}" ? " " : $0 })
        }
        var trimmed = Substring(result).trimmingWhitespace()
        while let last = trimmed.last, last == ":" || last == "：" {
            trimmed = trimmed.dropLast().trimmingWhitespace()
        }
        return String(trimmed)
    }

    private static let headings: [String: HeadingKind] = concepts(headingData).merging([
        "sink": .sink, "source": .source, "card": .card, "sink input": .other, "source output": .other,
        "module": .other, "client": .other, "sample": .other,
    ]) { _, english in english }

    private static let fields: [String: FieldConcept] = concepts(fieldData).merging([
        "muted": .mute, "module": .ownerModule, "card": .card, "monitor_of": .monitorOfSink,
        "default sink name": .defaultSink, "default source name": .defaultSource,
        "index": .index, "sinks": .sinks, "sources": .sources,
    ]) { _, pacmd in pacmd }

    private static let attributes: [String: AttributeConcept] = concepts(attributeData).merging([
        "type": .type, "priority": .priority, "latency offset": .latencyOffset,
        "availability group": .availabilityGroup, "sinks": .sinks, "sources": .sources, "available": .available,
    ]) { _, english in english }

    private static let portTypes: [String: DevicePortType] = {
        let members: [String: DevicePortType] = [
            "unknown": .unknown, "aux": .aux, "speaker": .speaker, "headphones": .headphones,
            "line": .line, "mic": .mic, "headset": .headset, "handset": .handset,
            "earpiece": .earpiece, "spdif": .spdif, "hdmi": .hdmi, "tv": .tv, "radio": .radio,
            "video": .video, "usb": .usb, "bluetooth": .bluetooth, "portable": .portable,
            "handsfree": .handsfree, "car": .car, "hifi": .hifi, "phone": .phone,
            "network": .network, "analog": .analog,
        ]
        return table(portTypeData).compactMapValues { members[$0] }
    }()

    private static let availabilities: [String: PortAvailability] = concepts(availabilityData).merging([
        "available": .available, "not available": .unavailable, "availability unknown": .unknown,
        "yes": .available, "no": .unavailable, "unknown": .unknown,
    ]) { _, english in english }

    private static let yesNoWords: [String: Bool] = table(yesNoData).mapValues { $0 == "yes" }
        .merging(["yes": true, "no": false]) { _, english in english }

    private static let notApplicableWords: Set<String> = Set(
        notApplicableData.split(whereSeparator: { $0 == "|" || $0 == "\n" }).map(String.init))

    /// A data table as word → concept, for a concept type named by its raw values.
    private static func concepts<Concept: RawRepresentable<String>>(_ data: String) -> [String: Concept] {
        table(data).compactMapValues { Concept(rawValue: $0) }
    }

    /// Reads `concept|word|word` lines (a line starting with `|` continues the one above)
    /// into word → concept name.
    private static func table(_ data: String) -> [String: String] {
        var result: [String: String] = [:]
        var concept: String?
        for line in data.split(separator: "\n") {
            var words = line.split(separator: "|")
            if !line.hasPrefix("|"), !words.isEmpty {
                concept = String(words.removeFirst())
            }
            guard let concept else { continue }
            for word in words {
                result[String(word)] = concept
            }
        }
        return result
    }
}
