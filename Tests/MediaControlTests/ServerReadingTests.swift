import ConcurrencySupport
@testable import MediaControl
import PulseAudio
import Testing

/// When media pausing reads what the server announces: at once what can expose media, a
/// moment later what can only matter once media plays there, so that a route switch caused
/// by the same event has the server first.
@Suite("Media guard: when the server is read")
struct ServerReadingTests {
    private func event(_ facility: SubscriptionEvent.Facility, _ kind: SubscriptionEvent.Kind,
                       _ index: UInt32 = 3) -> SubscriptionEvent {
        SubscriptionEvent(facility: facility, kind: kind, index: index)
    }

    @Test("removals need no reading and are passed on at once")
    func removals() {
        #expect(ServerReading.of(event(.sink, .remove), playingSinks: []) == .removal)
        #expect(ServerReading.of(event(.sinkInput, .remove), playingSinks: []) == .removal)
    }

    @Test("streams are read at once, appearing or changing")
    func streams() {
        #expect(ServerReading.of(event(.sinkInput, .new), playingSinks: []) == .now)
        #expect(ServerReading.of(event(.sinkInput, .change), playingSinks: []) == .now)
    }

    @Test("a sink media plays on is read at once when it changes: its jack pulled exposes the stream")
    func playingSink() {
        #expect(ServerReading.of(event(.sink, .change, 3), playingSinks: [3]) == .now)
    }

    @Test("a new sink, a sink nothing plays on, and the default wait: PulseAudio announces a new sink as changed first")
    func quiet() {
        #expect(ServerReading.of(event(.sink, .change, 3), playingSinks: [4]) == .later)
        #expect(ServerReading.of(event(.sink, .new, 3), playingSinks: []) == .later)
        #expect(ServerReading.of(event(.server, .change, .max), playingSinks: [3]) == .later)
    }

    @Test("what the guard does not follow is not read")
    func unfollowed() {
        for facility in [SubscriptionEvent.Facility.source, .sourceOutput, .card, .module, .client] {
            #expect(ServerReading.of(event(facility, .change), playingSinks: [3]) == nil)
        }
    }

    @Test("quiet reads coalesce: one read per object, for its newest event, oldest first; one reading at a time")
    func coalescing() {
        let quiet = ReadingLane<ServerObject>()
        #expect(quiet.add(ServerObject(event(.sink, .change, 3)), place: 1), "the first read starts a reading")
        #expect(!quiet.add(ServerObject(event(.server, .change, .max)), place: 2))
        #expect(!quiet.add(ServerObject(event(.sink, .new, 3)), place: 3), "a later event of the same sink replaces the read")
        let due = quiet.next()
        #expect(due.map(\.place) == [2, 3])
        #expect(due.map(\.key) == [.server, .sink(3)])
        #expect(!quiet.add(ServerObject(event(.sink, .change, 5)), place: 4), "announced during a reading: waits for the next")
        #expect(quiet.next().map(\.key) == [.sink(5)])
        #expect(quiet.next().isEmpty, "nothing waits: the reading ends")
        #expect(quiet.add(ServerObject(event(.sinkInput, .change, 9)), place: 5), "idle again: the next read starts a reading")
        #expect(quiet.next().map(\.key) == [.stream(9)])
    }
}
