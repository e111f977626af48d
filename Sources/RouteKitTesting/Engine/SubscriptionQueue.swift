import PulseAudio

/// The subscription events posted during one main-loop iteration of the server, coalesced
/// exactly as PulseAudio 16's `pa_subscription_post` (src/pulsecore/core-subscribe.c) does
/// before the deferred event hands them to clients:
///
/// - a `new` event is always queued;
/// - a `remove` event drops every queued event about the same object, then is queued;
/// - a `change` event is dropped when an event about the same object is queued already.
///
/// One public operation of ``SimulatedServer`` is one iteration, so what a client sees
/// matches what a real server sends for the same work done in one request.
struct SubscriptionQueue: Sendable {
    private(set) var events: [SubscriptionEvent] = []

    /// The index PulseAudio gives server events (`PA_INVALID_INDEX`).
    static let serverIndex = UInt32.max

    mutating func post(_ facility: SubscriptionEvent.Facility, _ kind: SubscriptionEvent.Kind, _ index: UInt32) {
        if kind != .new {
            var position = events.count - 1
            while position >= 0 {
                let queued = events[position]
                if queued.facility == facility, queued.index == index {
                    if kind == .remove {
                        events.remove(at: position)
                    } else {
                        return
                    }
                }
                position -= 1
            }
        }
        events.append(SubscriptionEvent(facility: facility, kind: kind, index: index))
    }

    /// The queued events, in order; the queue is empty afterwards.
    mutating func drain() -> [SubscriptionEvent] {
        defer { events.removeAll() }
        return events
    }
}
