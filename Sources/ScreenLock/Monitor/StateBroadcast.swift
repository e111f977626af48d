import ConcurrencySupport

/// The monitor's published state and who listens for its changes. Written only by the
/// monitor's `run()`; read from anywhere.
final class StateBroadcast: Sendable {
    private struct Shared {
        var state = ScreenLockState.unknown
        var listeners: [Int: AsyncStream<ScreenLockState>.Continuation] = [:]
        var nextListener = 0
        var finished = false
    }

    private let shared = LockedValue(Shared())

    /// The state last published.
    var state: ScreenLockState { shared.withLock { $0.state } }

    /// Every state published from now on; ends with ``finish()``.
    func subscribe() -> AsyncStream<ScreenLockState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScreenLockState.self)
        let id = shared.withLock { shared -> Int? in
            guard !shared.finished else { return nil }
            shared.nextListener += 1
            shared.listeners[shared.nextListener] = continuation
            return shared.nextListener
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.shared.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes a new state to every listener.
    func publish(_ state: ScreenLockState) {
        let listeners = shared.withLock { shared in
            shared.state = state
            return Array(shared.listeners.values)
        }
        // Yielded outside the lock; only run() publishes, so listeners see states in order.
        for listener in listeners { listener.yield(state) }
    }

    /// Ends every listener's stream, and those of later subscribers.
    func finish() {
        let listeners = shared.withLock { shared in
            shared.finished = true
            defer { shared.listeners = [:] }
            return Array(shared.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
