import FoundationEssentials
import RouteKit
import TextSupport

/// One preference entry as a person writes it — a kind or a device id — read into an
/// ``AudioPreference``, or refused with what to write instead: on the command line
/// (`--prefer`, `routectl prefer`) and in the configuration file alike.
package enum PreferenceText {
    /// The kinds an entry can name, as people type them.
    package static let kindNames = "bluetooth, wiredHeadset (or wired-headset), speakerphone, earpiece"

    /// Why an entry was refused.
    package enum Problem: Error, Equatable {
        /// Nothing was written.
        case empty
        /// A kind misspelled (`bluetoth`), which would otherwise be taken for a device id that
        /// never matches.
        case misspelledKind(typed: String, meant: AudioDeviceKind)
        /// `external` or `virtual`: kinds never chosen by kind, so the entry would match nothing.
        case notChosenByKind(typed: String, isVirtual: Bool)
    }

    /// `value` as a kind or an exact device id.
    package static func read(_ value: String) throws(Problem) -> AudioPreference {
        let text = value.trimmingWhitespace()
        if let kind = AudioPreference.misspelledKind(text) { throw .misspelledKind(typed: text, meant: kind) }
        if let preference = AudioPreference(text) { return preference }
        if text.isEmpty { throw .empty }
        throw .notChosenByKind(typed: text, isVirtual: text.lowercased().filter { $0 != "-" && $0 != "_" } == "virtual")
    }

    /// What to tell a person about `problem`; `example` writes an entry the way this place
    /// takes it (`--prefer ID`, `"ID"`).
    package static func message(_ problem: Problem, example: (String) -> String) -> String {
        switch problem {
        case .empty:
            return "needs a kind (\(kindNames)) or a device id from 'routectl list'."
        case .misspelledKind(let typed, let meant):
            return "\(typed): no such kind; did you mean \(meant)? Kinds: \(kindNames); or a device id from 'routectl list'."
        case .notChosenByKind(let typed, let isVirtual):
            let (what, id) = isVirtual
                ? ("virtual devices (null, combine, loopback and echo-cancel sinks)", "my_null_sink")
                : ("external devices (HDMI, DisplayPort, S/PDIF, line out)", "alsa_card.pci-0000_00_1f.3/hdmi-output-0")
            return """
                \(typed): \(what) are never chosen by kind; name the device exactly, with its id from \
                'routectl list' (for example \(example(id))). Kinds: \(kindNames).
                """
        }
    }
}
