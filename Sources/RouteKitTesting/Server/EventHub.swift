import PulseAudio
import Synchronization

/// Hands every event to every live ``SimulatedServer/events()`` stream, as `PulseClient`'s
/// broadcaster does: each stream buffers without bound and leaves when its consumer stops.
final class EventHub: Sendable {
    private struct Subscribers {
        var nextID = 0
        var continuations: [Int: AsyncStream<PulseEvent>.Continuation] = [:]
        var recordings: [Int: [PulseEvent]] = [:]
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

    /// Delivers `events` in order. Called with the server's lock held, so that events of
    /// concurrent operations never interleave; this takes only the hub's own lock.
    func yield(_ events: [PulseEvent]) {
        guard !events.isEmpty else { return }
        let continuations = subscribers.withLock { state in
            for id in state.recordings.keys {
                state.recordings[id]?.append(contentsOf: events)
            }
            return state.continuations.sorted { $0.key < $1.key }.map(\.value)
        }
        for continuation in continuations {
            for event in events {
                continuation.yield(event)
            }
        }
    }

    /// Starts keeping a copy of every event delivered from now on.
    func startRecording() -> Int {
        subscribers.withLock { state in
            defer { state.nextID += 1 }
            state.recordings[state.nextID] = []
            return state.nextID
        }
    }

    /// Stops recording `id` and returns what it kept.
    func stopRecording(_ id: Int) -> [PulseEvent] {
        subscribers.withLock { $0.recordings.removeValue(forKey: id) ?? [] }
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
