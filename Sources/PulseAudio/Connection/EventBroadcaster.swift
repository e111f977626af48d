import Synchronization

/// Hands every event to every live ``PulseClient/events()`` stream. Streams buffer without
/// bound, so a slow consumer loses nothing; a stream leaves when its consumer stops iterating.
final class EventBroadcaster: Sendable {
    private struct Subscribers {
        var nextID = 0
        var continuations: [Int: AsyncStream<PulseEvent>.Continuation] = [:]
        var isFinished = false
    }

    private let subscribers = Mutex(Subscribers())

    func makeStream() -> AsyncStream<PulseEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PulseEvent.self, bufferingPolicy: .unbounded)
        let id: Int? = subscribers.withLock { state in
            guard !state.isFinished else { return nil }
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ event: PulseEvent) {
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.yield(event)
        }
    }

    /// Ends every stream; later streams end at once.
    func finish() {
        let continuations = subscribers.withLock { state in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
