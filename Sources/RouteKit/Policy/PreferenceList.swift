/// What an application prefers, in ACB's shape: a preferred device, a fallback, and between
/// them any further entries, best first.
///
/// ACB's two slots are independent: ``preferred`` (``AudioDeviceManager/setAudioDevice(_:)``)
/// and ``fallback`` (``AudioDeviceManager/setDefaultAudio(_:)``) can be set in either order
/// without undoing each other. ``AudioDeviceManager/setPreferences(_:)`` sets the general case,
/// an ordered list: its first entry becomes the preferred one, the rest follow it.
public struct PreferenceList: Hashable, Sendable, CustomStringConvertible {
    /// Used whenever present: ACB's `setAudioDevice`.
    public var preferred: AudioPreference?
    /// Tried after the preferred device, before the fallback.
    public var others: [AudioPreference]
    /// Used when nothing before it works: ACB's `setDefaultAudio`.
    public var fallback: AudioPreference?

    /// A list from its parts.
    public init(preferred: AudioPreference? = nil, others: [AudioPreference] = [], fallback: AudioPreference? = nil) {
        self.preferred = preferred
        self.others = others
        self.fallback = fallback
    }

    /// An ordered list: the first entry is the preferred one, the rest follow; no fallback.
    public init(_ ordered: [AudioPreference]) {
        self.init(preferred: ordered.first, others: Array(ordered.dropFirst()))
    }

    /// Every entry, best first, each once.
    public var ordered: [AudioPreference] {
        // A list is a few entries long and read at every decision: a linear check for
        // duplicates costs less than hashing each entry's text.
        var entries: [AudioPreference] = []
        entries.reserveCapacity(others.count + 2)
        for entry in CollectionOfOne(preferred).compactMap({ $0 }) + others + CollectionOfOne(fallback).compactMap({ $0 })
        where !entries.contains(entry) {
            entries.append(entry)
        }
        return entries
    }

    /// Whether there is no entry at all.
    public var isEmpty: Bool { ordered.isEmpty }

    /// The entries, comma-separated (`bluetooth, speakerphone`).
    public var description: String { ordered.map(\.description).joined(separator: ", ") }
}
