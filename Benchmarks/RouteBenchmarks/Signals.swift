import PulseAudio
import RouteKit
import Synchronization

/// Something the benchmark waits for: the observer's server events, what a switcher
/// reports about itself, lines from helper processes, and the outside observer's sightings.
enum Signal: Sendable {
    /// An event on the observer's connection.
    case server(PulseEvent)
    /// An event from RouteKit's `AudioDeviceManager`.
    case route(AudioRouteEvent)
    /// A line the switch-on-connect script printed.
    case script(String)
    /// A line `routectl daemon` printed.
    case daemon(String)
    /// A line the stream player printed.
    case player(String)
    /// A line the floor client printed.
    case floor(String)
    /// What the outside observer process saw.
    case outside(ObserverLine)
}

/// One queue of every ``Signal``, in arrival order, read by one consumer with a time limit.
///
/// Waits need a time limit (a switcher that never switches must not hang the run), and an
/// `AsyncStream` cannot be waited on with one without ending it; this queue can.
final class SignalQueue: Sendable {
    /// The queued signals (from `head` on) and the consumer waiting, if it is.
    private struct State {
        var buffer: [Signal] = []
        var head = 0
        var waiter: (id: Int, continuation: CheckedContinuation<Signal?, Never>)?
        var nextWaiterID = 0

        /// The oldest queued signal, removed; compacts the buffer now and then.
        mutating func popFirst() -> Signal? {
            guard head < buffer.count else { return nil }
            let signal = buffer[head]
            head += 1
            if head > 1024, head * 2 > buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return signal
        }
    }

    private let state = Mutex(State())

    /// An empty queue.
    init() {}

    /// Appends `signal`, or hands it to the waiting consumer.
    func push(_ signal: Signal) {
        let waiter = state.withLock { state -> CheckedContinuation<Signal?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.buffer.append(signal)
            return nil
        }
        waiter?.resume(returning: signal)
    }

    /// The next signal at once, if one is queued.
    func poll() -> Signal? {
        state.withLock { $0.popFirst() }
    }

    /// The next signal, waiting at most until `deadline`; nil when the deadline passed first.
    func next(before deadline: ContinuousClock.Instant) async -> Signal? {
        if let signal = poll() { return signal }
        guard deadline > .now else { return nil }
        var timer: Task<Void, Never>?
        let signal = await withCheckedContinuation { (continuation: CheckedContinuation<Signal?, Never>) in
            let result = state.withLock { state -> (queued: Signal?, id: Int?) in
                if let signal = state.popFirst() { return (signal, nil) }
                let id = state.nextWaiterID
                state.nextWaiterID += 1
                state.waiter = (id, continuation)
                return (nil, id)
            }
            if let queued = result.queued {
                continuation.resume(returning: queued)
            } else if let id = result.id {
                timer = Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    guard !Task.isCancelled else { return }
                    self?.expire(id)
                }
            }
        }
        timer?.cancel()
        return signal
    }

    /// Wakes the consumer with nil if it is still waiting under `id`.
    private func expire(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Signal?, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// Forwards every event of `events` until it ends or the task is cancelled.
    func forward(_ events: AsyncStream<PulseEvent>) -> Task<Void, Never> {
        Task { [self] in
            for await event in events { push(.server(event)) }
        }
    }
}
