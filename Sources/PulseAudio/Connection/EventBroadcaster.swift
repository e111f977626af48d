import ConcurrencySupport

/// Hands every event to every live observer: ``PulseClient/events()`` streams and
/// ``PulseClient/observeEvents(_:)`` handlers. Streams buffer without bound, so a slow consumer
/// loses nothing; a stream leaves when its consumer stops iterating, a handler when its
/// ``EventObservation`` is cancelled.
///
/// Handlers get each event before any stream does, each group in the order it registered:
/// a handler is the latency-critical path (the route engine's loop on the same thread), while
/// feeding a stream whose consumer waits wakes a thread of the consumer's executor, which
/// would otherwise come first and compete with the switch for the CPU.
///
/// Package-wide, so that the simulated server's events reach observers exactly as the
/// client's do.
package final class EventBroadcaster: Sendable {
    /// An observer gets each event, then nil once the broadcaster finishes.
    package typealias Observer = @Sendable (PulseEvent?) -> Void

    private struct Entry {
        var id: Int
        var isStream: Bool
        var observer: Observer
    }

    private struct Observers {
        var nextID = 0
        /// Handlers, then streams; each in registration order.
        var entries: [Entry] = []
        var isFinished = false

        /// Adds `entry` after the others of its group.
        mutating func add(_ entry: Entry) {
            let end = entry.isStream ? entries.endIndex : entries.firstIndex(where: \.isStream) ?? entries.endIndex
            entries.insert(entry, at: end)
        }
    }

    private let observers = LockedValue(Observers())

    /// A broadcaster with no observers yet.
    package init() {}

    /// A new stream that receives every event from now on.
    package func makeStream() -> AsyncStream<PulseEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PulseEvent.self, bufferingPolicy: .unbounded)
        let observation = register(isStream: true) { event in
            if let event { continuation.yield(event) } else { continuation.finish() }
        }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// Calls `observer` with every event from now on, on the thread that delivers it (for a
    /// `PulseClient`, libpulse's loop thread: the observer must return quickly and never call
    /// back into the client), then with nil once the broadcaster finishes.
    package func observe(_ observer: @escaping Observer) -> EventObservation {
        register(isStream: false, observer)
    }

    /// Registers `observer` as a stream's feed (`isStream`, heard after every handler) or as a handler.
    func register(isStream: Bool, _ observer: @escaping Observer) -> EventObservation {
        let id: Int? = observers.withLock { state in
            guard !state.isFinished else { return nil }
            defer { state.nextID += 1 }
            state.add(Entry(id: state.nextID, isStream: isStream, observer: observer))
            return state.nextID
        }
        guard let id else {
            observer(nil)
            return EventObservation {}
        }
        return EventObservation { [weak self] in
            self?.observers.withLock { $0.entries.removeAll { $0.id == id } }
        }
    }

    /// Delivers `event` to every observer.
    package func yield(_ event: PulseEvent) {
        for observer in liveObservers() { observer(event) }
    }

    /// Delivers `events`, in order, to every observer.
    package func yield(contentsOf events: [PulseEvent]) {
        guard !events.isEmpty else { return }
        for observer in liveObservers() {
            for event in events { observer(event) }
        }
    }

    /// Every observer, copied out so that none is called under the lock.
    private func liveObservers() -> [Observer] {
        observers.withLock { $0.entries.map(\.observer) }
    }

    /// Ends every observer; later ones end at once.
    package func finish() {
        let ended = observers.withLock { state in
            state.isFinished = true
            defer { state.entries.removeAll() }
            return state.entries.map(\.observer)
        }
        for observer in ended { observer(nil) }
    }
}

/// An event handler's registration (``PulseClient/observeEvents(_:)``): the handler is called
/// until ``cancel()``, or until the observation is released.
public final class EventObservation: Sendable {
    private let cancellation: LockedValue<(@Sendable () -> Void)?>

    package init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = LockedValue(cancel)
    }

    deinit { cancel() }

    /// Stops the handler; events already being delivered may still reach it. Idempotent.
    public func cancel() {
        let cancel = cancellation.withLock { stored -> (@Sendable () -> Void)? in
            defer { stored = nil }
            return stored
        }
        cancel?()
    }
}
