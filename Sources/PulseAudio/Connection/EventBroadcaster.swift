import Synchronization

/// Hands every event to every live ``PulseClient/events()`` stream. Streams buffer without
/// bound, so a slow consumer loses nothing; a stream leaves when its consumer stops iterating.
/// Package-wide, so that the simulated server's streams behave exactly as the client's.
package final class EventBroadcaster: Sendable {
    private struct Subscribers {
        var nextID = 0
        var continuations: [Int: AsyncStream<PulseEvent>.Continuation] = [:]
        var isFinished = false
    }

    private let subscribers = Mutex(Subscribers())

    /// A broadcaster with no streams yet.
    package init() {}

    /// A new stream that receives every event from now on.
    package func makeStream() -> AsyncStream<PulseEvent> {
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

    /// Delivers `event` to every stream.
    package func yield(_ event: PulseEvent) {
        for continuation in liveContinuations() { continuation.yield(event) }
    }

    /// Delivers `events`, in order, to every stream.
    package func yield(contentsOf events: [PulseEvent]) {
        guard !events.isEmpty else { return }
        for continuation in liveContinuations() {
            for event in events { continuation.yield(event) }
        }
    }

    /// Every stream's continuation, copied out so that none is yielded to under the lock.
    private func liveContinuations() -> [AsyncStream<PulseEvent>.Continuation] {
        subscribers.withLock { Array($0.continuations.values) }
    }

    /// Ends every stream; later streams end at once.
    package func finish() {
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
