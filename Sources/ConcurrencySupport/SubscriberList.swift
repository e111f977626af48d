/// The streams of an owner's subscribers, kept inside the owner's own lock so that a change
/// and its announcement are one step: the manager's events, a broadcast's values, the MPRIS
/// players' changes.
///
/// A stream whose consumer has gone is forgotten when a value next meets it (`yield`'s
/// `.terminated`), never from an `onTermination` handler: that handler runs while the Swift
/// runtime holds the cancelled consumer task's status lock, and taking the owner's lock
/// there, while a yield under the owner's lock waits for that task's status lock, deadlocks
/// (seen as a daemon that never exited on SIGTERM; `SubscriberEndTests`).
package struct SubscriberList<Element: Sendable>: Sendable {
    private var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    private var nextID = 0

    /// No subscribers.
    package init() {}

    /// Whether no subscriber is held.
    package var isEmpty: Bool { continuations.isEmpty }

    /// Adds a subscriber's stream.
    package mutating func add(_ continuation: AsyncStream<Element>.Continuation) {
        continuations[nextID] = continuation
        nextID += 1
    }

    /// Hands `element` to every subscriber, and forgets those whose stream has ended.
    package mutating func yield(_ element: Element) {
        for (id, continuation) in continuations {
            if case .terminated = continuation.yield(element) { continuations.removeValue(forKey: id) }
        }
    }

    /// Forgets every subscriber and returns their streams, for the caller to finish once it
    /// has let go of its lock (finishing runs their end handlers).
    package mutating func removeAll() -> [AsyncStream<Element>.Continuation] {
        defer { continuations.removeAll() }
        return Array(continuations.values)
    }
}
