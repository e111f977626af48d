import ConcurrencySupport
import Testing

/// How media pausing and call detection read a burst's streams: one reading in flight, the
/// streams announced meanwhile waiting for it, each for its newest event.
@Suite("Reading lane: one reading in flight")
struct ReadingLaneTests {
    @Test("the first stream starts a reading; those announced during it wait and are read together after it, oldest first")
    func oneInFlight() {
        let lane = ReadingLane<UInt32>()
        #expect(lane.add(7, place: 1), "nothing in flight: the caller starts a reading")
        #expect(lane.next().map(\.key) == [7])
        #expect(!lane.add(8, place: 2), "a reading is in flight")
        #expect(!lane.add(9, place: 3))
        #expect(!lane.add(8, place: 4), "a later event of the same stream replaces its read")
        let due = lane.next()
        #expect(due.map(\.key) == [9, 8])
        #expect(due.map(\.place) == [3, 4])
    }

    @Test("once nothing waits the lane is idle, and the next stream starts a reading again")
    func idleAgain() {
        let lane = ReadingLane<UInt32>()
        #expect(lane.add(1, place: 1))
        _ = lane.next()
        #expect(lane.next().isEmpty, "nothing waits: the reading ends")
        #expect(lane.add(2, place: 2), "idle: the next stream starts one")
        #expect(!lane.add(3, place: 3))
    }
}
