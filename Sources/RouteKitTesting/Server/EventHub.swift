import ConcurrencySupport
import PulseAudio

/// Hands every event to every live ``SimulatedServer/events()`` stream through the same
/// broadcaster `PulseClient` uses, and keeps copies for ``SimulatedServer/subscriptionEvents(during:)``.
final class EventHub: Sendable {
    private struct Recordings {
        var nextID = 0
        var kept: [Int: [PulseEvent]] = [:]
    }

    private let broadcaster = EventBroadcaster()
    private let recordings = LockedValue(Recordings())

    func makeStream() -> AsyncStream<PulseEvent> {
        broadcaster.makeStream()
    }

    func observe(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation {
        broadcaster.observe(handler)
    }

    /// Delivers `events` in order. Called with the server's lock held, so that events of
    /// concurrent operations never interleave; this takes only the hub's own locks.
    func yield(_ events: [PulseEvent]) {
        guard !events.isEmpty else { return }
        recordings.withLock { state in
            for id in state.kept.keys { state.kept[id]?.append(contentsOf: events) }
        }
        broadcaster.yield(contentsOf: events)
    }

    /// Starts keeping a copy of every event delivered from now on.
    func startRecording() -> Int {
        recordings.withLock { state in
            defer { state.nextID += 1 }
            state.kept[state.nextID] = []
            return state.nextID
        }
    }

    /// Stops recording `id` and returns what it kept.
    func stopRecording(_ id: Int) -> [PulseEvent] {
        recordings.withLock { $0.kept.removeValue(forKey: id) ?? [] }
    }

    /// Ends every stream; later streams end at once.
    func finish() {
        broadcaster.finish()
    }
}
