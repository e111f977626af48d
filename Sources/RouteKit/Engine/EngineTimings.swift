import ConcurrencySupport

/// Where the time of one event-driven switch went, hop by hop, as the engine measured it on
/// its own clock: for benchmarks (`route-benchmarks` prints them) and diagnostics. Only
/// batches that led to a route request are kept, the last 1 024 of them.
package struct SwitchTiming: Sendable, Hashable {
    /// When libpulse's callback handed the batch's first event to the queue.
    package var received: ContinuousClock.Instant
    /// libpulse's callback handed the first event of the batch to the queue → the loop woke.
    package var queueHop: Duration
    /// The loop woke → the batch's lookups were answered and the device state updated.
    package var lookups: Duration
    /// → the machine decided (pure code: devices, policy, actions).
    package var decision: Duration
    /// → the route request (ports, default sink and source) was answered by the server.
    package var request: Duration

    /// The sum: event received → request answered.
    package var total: Duration { queueHop + lookups + decision + request }
}

/// The engine's record of ``SwitchTiming``s, bounded.
final class TimingRecorder: Sendable {
    static let capacity = 1024
    private let kept = LockedValue<[SwitchTiming]>([])

    init() {}

    func record(_ timing: SwitchTiming) {
        kept.withLock { kept in
            if kept.count == Self.capacity { kept.removeFirst(Self.capacity / 4) }
            kept.append(timing)
        }
    }

    var all: [SwitchTiming] { kept.withLock { $0 } }
}

/// The instants of one batch on its way, filled in as it goes.
struct BatchClock: Sendable {
    var received: ContinuousClock.Instant?
    var woke = ContinuousClock.now
    var lookedUp: ContinuousClock.Instant?
    var decided: ContinuousClock.Instant?
}
