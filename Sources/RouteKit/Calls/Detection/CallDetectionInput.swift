import ConcurrencySupport

/// One thing call detection is told about the server, in the order it happened.
enum CallDetectionInput: Sendable {
    /// Every stream, at start and after a reconnection.
    case reset([CallStream])
    /// A stream read after the event at `order` in the server's order (reads run side by side
    /// and may come back out of order).
    case stream(CallStream, order: UInt64)
    /// A stream gone, as the event at `order` (or a read finding nothing) said.
    case removed(CallStream.Key, order: UInt64)
    /// A new rule.
    case rule(CallDetectionRule)

    /// Feeds it to `machine`, unless `order` has seen something newer of the same stream.
    func apply(to machine: inout CallDetectionMachine, order: inout ReadingOrder<CallStream.Key>,
               now: ContinuousClock.Instant) -> [CallDetectionAction] {
        switch self {
        case .reset(let streams):
            machine.reset(streams, now: now)
        case .stream(let stream, let place):
            order.isCurrent(stream.key, place) ? machine.streamSeen(stream, now: now) : []
        case .removed(let key, let place):
            order.isCurrent(key, place) ? machine.streamRemoved(key, now: now) : []
        case .rule(let rule):
            machine.ruleChanged(rule, now: now)
        }
    }
}
