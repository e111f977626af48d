import PulseAudio
import TextSupport

/// Reads the values of fields as `pactl`, `pacmd` and PipeWire tools print them.
enum DumpValues {
    /// Per-channel volumes from `front-left: 42843 /  65% / -11,08 dB,   front-right: ...`
    /// (the raw values), or from `0: 100% 1: 100%` and `100%` (PulseAudio 0.9 prints only
    /// percentages). Empty when the text holds neither.
    static func volume(_ text: String?) -> ChannelVolumes {
        guard let text else { return ChannelVolumes([]) }
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        var raw: [UInt32] = []
        for position in tokens.indices.dropLast() where tokens[position + 1] == "/" {
            if let value = UInt32(tokens[position]) {
                raw.append(value)
            }
        }
        if !raw.isEmpty {
            return ChannelVolumes(raw)
        }
        let percentages = tokens.compactMap { token -> UInt32? in
            guard token.count > 1, token.last == "%" else { return nil }
            let number = token.dropLast().map { $0 == "," ? "." : $0 }
            guard let percent = Double(String(number)), percent >= 0 else { return nil }
            return UInt32(exactly: (Double(ChannelVolumes.normal) * percent / 100).rounded())
        }
        return ChannelVolumes(percentages)
    }

    /// The state word of `pactl`, `pacmd` (`RUNNING`, `IDLE`, `SUSPENDED`) or PipeWire
    /// (`running`, `idle`, `suspended`); unknown for anything else.
    static func state(_ text: String?) -> DeviceState {
        switch text?.uppercased() {
        case "RUNNING"?: .running
        case "IDLE"?: .idle
        case "SUSPENDED"?: .suspended
        default: .unknown
        }
    }

    /// Whether `text` is a state word.
    static func isState(_ text: String) -> Bool {
        ["RUNNING", "IDLE", "SUSPENDED", "INIT", "UNLINKED"].contains(text.uppercased())
    }

    /// The index a value starts with (`7`, `0 <alsa_card.pci-0000_00_1f.3>`); nil for none,
    /// `n/a` in any language, or PulseAudio's invalid index 4294967295.
    static func index(_ text: String?) -> UInt32? {
        guard let text, let value = UInt32(text.prefix { $0.isASCII && $0.isNumber }) else { return nil }
        return value == ServerDump.unknownIndex ? nil : value
    }

    /// Whether a value looks like a volume: a percentage somewhere in it.
    static func isVolume(_ text: String) -> Bool {
        text.contains("%")
    }

    /// A name value, nil when it is empty or `n/a` in some language.
    static func name(_ text: String?) -> String? {
        guard let text, !text.isEmpty, !PactlVocabulary.isNotApplicable(text) else { return nil }
        return text
    }

    /// The names in a `Part of profile(s):` list, split at commas outside parentheses (PipeWire
    /// UCM profile names such as `HiFi (HDMI1, Headphones, Speaker)` hold commas).
    static func profileList(_ text: some StringProtocol) -> [String] {
        var names: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth <= 0:
                names.append(String(current.trimmingWhitespace()))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        names.append(String(current.trimmingWhitespace()))
        return names.filter { !$0.isEmpty }
    }

    /// Sink and source counts an ACP profile name implies (`output:analog-stereo+input:mono-fallback`
    /// → 1 and 1, `off` → 0 and 0), for `pacmd`, which does not print them; nil for other names.
    static func profileCounts(_ name: String) -> (sinks: UInt32, sources: UInt32)? {
        if name == "off" {
            return (0, 0)
        }
        let parts = name.split(separator: "+")
        guard parts.allSatisfy({ $0.hasPrefix("output:") || $0.hasPrefix("input:") }) else { return nil }
        let sinks = parts.filter { $0.hasPrefix("output:") }.count
        return (UInt32(sinks), UInt32(parts.count - sinks))
    }
}
