import ArgumentParser
import RouteKit
import RouteKitDaemon

/// Reads `routectl daemon`'s `--prefer` values into a preference list, refusing what would
/// silently match nothing with a message that says what to write instead.
enum PreferenceArguments {
    /// The kinds a `--prefer` can name, as people type them.
    static let kindNames = PreferenceText.kindNames

    /// `values` in order, each a kind or an exact device id. Throws a `ValidationError`
    /// (usage, exit 64) for an empty value, for `external` or `virtual`, and for a kind
    /// misspelled (`bluetoth`), which would otherwise be read as a device id.
    static func parse(_ values: [String], option: String = "--prefer") throws -> [AudioPreference] {
        try values.map { value in
            do throws(PreferenceText.Problem) {
                return try PreferenceText.read(value)
            } catch {
                throw ValidationError("\(option) " + PreferenceText.message(error) { "\(option) \($0)" })
            }
        }
    }
}
