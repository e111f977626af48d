import FoundationEssentials
import DBus
import RouteKit
import TextSupport

/// Reads `SetPreferences`' entries, refusing those that would silently match nothing. Pure.
public enum PreferenceEntries {
    /// Each entry as a kind or an exact device id, in order. A device id need not be present
    /// now (it is used when it appears). Throws `InvalidPreference` for an empty entry, a
    /// misspelled kind, `external`/`virtual` (never chosen by kind), or an entry with a control
    /// or invisible format character (which no device id has, and `routectl prefer` refuses),
    /// naming the kinds; the list is then left as it was.
    public static func parse(_ entries: [String], devices: [AudioDevice]) throws(BusError) -> [AudioPreference] {
        var preferences: [AudioPreference] = []
        for entry in entries {
            let text = entry.trimmingWhitespace()
            if let hidden = text.unicodeScalars.first(where: ErrorText.isHidden) {
                throw invalid("the entry \"\(ErrorText.quoted(text.prefix(60)))\" holds \(ErrorText.code(hidden)), "
                              + "a control or formatting character, which no device id has", devices)
            }
            if let kind = AudioPreference.misspelledKind(text) {
                throw invalid("no kind \"\(ErrorText.quoted(text))\"; did you mean \(kind)?", devices)
            }
            guard let preference = AudioPreference(text) else {
                throw invalid(text.isEmpty ? "an entry is empty" : "\(ErrorText.quoted(text)) devices are never chosen by kind; name one by its id",
                              devices)
            }
            preferences.append(preference)
        }
        return preferences
    }

    private static func invalid(_ what: String, _ devices: [AudioDevice]) -> BusError {
        BusError(name: RouteKitInterface.ErrorName.invalidPreference, message: DeviceTarget.sentence(what) + " " + DeviceTarget.choices(devices))
    }
}
