/// The newest event each object's reading answered, by the event's place in the server's
/// order: the one rule by which RouteKit drops an answer that a later event superseded.
/// Readings run side by side and may come back out of order; a reading of an older event
/// that returns after a newer one (a stream read before RouteKit muted it, returning after
/// the read that showed it muted; a device looked up just before it went) is dropped, not
/// taken for a change.
package struct ReadingOrder<Key: Hashable & Sendable>: Sendable {
    private var newest: [Key: UInt64] = [:]

    /// An order that has seen nothing.
    package init() {}

    /// Whether what answers the event at `place` is the newest of `key` so far; it becomes
    /// the newest when it is. An event taken without a reading (a removal) goes through
    /// here too, so that a reading asked before it is dropped.
    package mutating func isCurrent(_ key: Key, _ place: UInt64) -> Bool {
        if let seen = newest[key], seen > place { return false }
        newest[key] = place
        return true
    }
}
