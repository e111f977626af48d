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
        let id = state.withLock { state -> Int in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `element` to every subscriber.
    public func send(_ element: Element) {
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.yield(element) }
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
