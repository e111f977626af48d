/// What followers of a manager's mirrors that carry streams (call detection, ringing) compute
/// alike: each mirror against the one before it on the same connection, and a dictionary of
/// server objects against its value in that mirror.
extension ServerMirror {
    /// Successive mirrors that carry streams: the first on a connection stands alone (a
    /// reset), each later one comes with the one before. A mirror without streams (the
    /// manager disconnected, or its streams not read yet) is none, and the next with them
    /// stands alone again.
    package struct StreamFollowing: Sendable {
        private var last: ServerMirror?

        /// Nothing followed yet.
        package init() {}

        /// `mirror` with the mirror before it (nil: it stands alone), or nil when it carries
        /// no streams.
        package mutating func next(_ mirror: ServerMirror) -> (before: ServerMirror?, now: ServerMirror)? {
            guard mirror.streams != nil else {
                last = nil
                return nil
            }
            defer { last = mirror }
            return (last, mirror)
        }
    }
}

extension Dictionary where Key == UInt32 {
    /// The entries that are new since `before` or differ from it by `differs`, by index, and
    /// the indices `before` had that are gone.
    package func changes(since before: Self, differs: (Value, Value) -> Bool) -> (changed: [(UInt32, Value)], removed: [UInt32]) {
        let changed = filter { index, value in before[index].map { differs($0, value) } ?? true }.map { ($0.key, $0.value) }
        let removed = before.keys.filter { self[$0] == nil }
        return (changed, removed)
    }
}

extension Dictionary where Key == UInt32, Value: Equatable {
    /// The entries that are new or changed since `before`, by index, and the indices gone.
    package func changes(since before: Self) -> (changed: [(UInt32, Value)], removed: [UInt32]) {
        changes(since: before, differs: !=)
    }
}
