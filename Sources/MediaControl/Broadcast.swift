import Synchronization

/// Values sent to every subscriber, each getting every value in the order sent: how the
/// guard, in-process players and the daemon's context hand out their events.
public final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextSubscriber = 0
    }

    private let state = Mutex(State())

    /// No subscribers yet.
    public init() {}

    /// Every value sent from now on, until ``finish()``.
    public func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
        }
        return stream
    }

    /// Sends `element` to every subscriber, and forgets those whose stream has ended.
    ///
    /// An ended stream is noticed from `yield`'s answer, not with an `onTermination` handler:
    /// that handler runs under the cancelled consumer's task-status lock, and taking this
    /// lock there while a yield under this lock waits for that task deadlocks.
    public func send(_ element: Element) {
        state.withLock { state in
            for (id, continuation) in state.subscribers {
                if case .terminated = continuation.yield(element) { state.subscribers.removeValue(forKey: id) }
            }
        }
    }

    /// Ends every subscriber's stream; later subscribers get the values sent after.
    public func finish() {
        let ended = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for continuation in ended { continuation.finish() }
    }
}
