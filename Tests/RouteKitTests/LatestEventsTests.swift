import PulseAudio
@testable import RouteKit
import Testing

@Suite("A batch of server events, one per object")
struct LatestEventsTests {
    @Test("the last kind of each object, in the order objects first appeared")
    func latestPerObject() {
        let events = [
            SubscriptionEvent(facility: .sink, kind: .new, index: 3),
            SubscriptionEvent(facility: .source, kind: .new, index: 3),
            SubscriptionEvent(facility: .sink, kind: .change, index: 3),
            SubscriptionEvent(facility: .card, kind: .change, index: 1),
            SubscriptionEvent(facility: .sink, kind: .remove, index: 3),
        ]
        #expect(events.latestPerObject() == [
            SubscriptionEvent(facility: .sink, kind: .remove, index: 3),
            SubscriptionEvent(facility: .source, kind: .new, index: 3),
            SubscriptionEvent(facility: .card, kind: .change, index: 1),
        ])
    }
}
