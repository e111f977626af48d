import ConcurrencySupport
@testable import PulseAudio
import Testing

/// The order in which one event reaches its observers: handlers (the route engine's loop)
/// first, then the feeds of `events()` streams, each group in the order it registered.
@Suite("Event broadcaster: who hears first")
struct EventBroadcasterOrderTests {
    @Test("handlers hear an event before any stream is fed, each group in registration order")
    func handlersFirst() {
        let broadcaster = EventBroadcaster()
        let heard = LockedValue<[String]>([])
        var observations: [EventObservation] = []
        // Streams and handlers registered interleaved, a stream first: registration order
        // alone must not decide, and neither may a dictionary's.
        for number in 0..<8 {
            observations.append(broadcaster.register(isStream: true) { event in
                if event != nil { heard.withLock { $0.append("stream \(number)") } }
            })
            observations.append(broadcaster.observe { event in
                if event != nil { heard.withLock { $0.append("handler \(number)") } }
            })
        }
        broadcaster.yield(.subscription(SubscriptionEvent(facility: .sink, kind: .new, index: 1)))
        #expect(heard.withLock { $0 } == (0..<8).map { "handler \($0)" } + (0..<8).map { "stream \($0)" })

        // One that leaves is no longer called; the others keep their order.
        observations[2].cancel()  // stream 1
        observations[5].cancel()  // handler 2
        heard.withLock { $0.removeAll() }
        broadcaster.yield(.subscription(SubscriptionEvent(facility: .sink, kind: .remove, index: 1)))
        #expect(heard.withLock { $0 } == [0, 1, 3, 4, 5, 6, 7].map { "handler \($0)" } + [0, 2, 3, 4, 5, 6, 7].map { "stream \($0)" })
    }

    @Test("a stream still gets every event, in order")
    func streamsStillFed() async {
        let broadcaster = EventBroadcaster()
        let stream = broadcaster.makeStream()
        for index in UInt32(1)...3 {
            broadcaster.yield(.subscription(SubscriptionEvent(facility: .sink, kind: .new, index: index)))
        }
        broadcaster.finish()
        var indexes: [UInt32] = []
        for await case .subscription(let change) in stream { indexes.append(change.index) }
        #expect(indexes == [1, 2, 3])
    }
}
