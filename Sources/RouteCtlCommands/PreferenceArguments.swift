import ArgumentParser
import Foundation
import RouteKit

/// Reads `routectl daemon`'s `--prefer` values into a preference list, refusing what would
/// silently match nothing with a message that says what to write instead.
enum PreferenceArguments {
    /// The kinds a `--prefer` can name, as people type them.
    static let kindNames = "bluetooth, wiredHeadset (or wired-headset), speakerphone, earpiece"

    /// `values` in order, each a kind or an exact device id. Throws a `ValidationError`
    /// (usage, exit 64) for an empty value, for `external` or `virtual`, and for a kind
    /// misspelled (`bluetoth`), which would otherwise be read as a device id.
    static func parse(_ values: [String]) throws -> [AudioPreference] {
        try values.map { value in
            if let kind = AudioPreference.misspelledKind(value.trimmingCharacters(in: .whitespaces)) {
                // A device id would be taken as it is and silently match nothing.
                throw ValidationError("""
                    --prefer \(value): no such kind; did you mean \(kind)? Kinds: \(kindNames); \
                    or a device id from 'routectl list'.
                    """)
            }
            if let preference = AudioPreference(value) { return preference }
            let text = value.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                throw ValidationError("--prefer needs a kind (\(kindNames)) or a device id from 'routectl list'.")
            }
            let (what, example) = text.lowercased().filter { $0 != "-" && $0 != "_" } == "virtual"
                ? ("virtual devices (null, combine, loopback and echo-cancel sinks)", "my_null_sink")
                : ("external devices (HDMI, DisplayPort, S/PDIF, line out)", "alsa_card.pci-0000_00_1f.3/hdmi-output-0")
            throw ValidationError("""
                --prefer \(text): \(what) are never chosen by kind; name the device exactly, with \
                its id from 'routectl list' (for example --prefer \(example)). Kinds: \(kindNames).
                """)
        }
    }
}
