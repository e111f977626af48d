/// Reads waiting for one reader: the first key of a burst starts a reading, the keys added
/// while it runs wait and are taken together after it, each for its newest event. Media
/// pausing and call detection read a burst's streams this way, so that fifty streams moved
/// by a route switch cost the server a reading or two, not fifty lookups beside the switch.
package final class ReadingLane<Key: Hashable & Sendable>: Sendable {
    private struct State {
        /// Each key waiting, with the place of its newest event.
        var waiting: [Key: UInt64] = [:]
        var isReading = false
    }

    private let state = LockedValue(State())

    /// An idle lane.
    package init() {}

    /// Adds the read of `key` for its event at `place`; true when no reading is running, so
    /// that the caller starts one, which takes ``next()`` until it is empty.
    package func add(_ key: Key, place: UInt64) -> Bool {
        state.withLock { state in
            state.waiting[key] = place
            guard !state.isReading else { return false }
            state.isReading = true
            return true
        }
    }

    /// The keys to read now, oldest event first; empty when none waits, and the lane is then
    /// idle: the next ``add(_:place:)`` starts a reading again.
    package func next() -> [(key: Key, place: UInt64)] {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isReading = false
                return []
            }
            defer { state.waiting.removeAll() }
            return state.waiting.map { (key: $0.key, place: $0.value) }.sorted { $0.place < $1.place }
        }
    }
}
