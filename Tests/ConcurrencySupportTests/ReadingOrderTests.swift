import ConcurrencySupport
import Testing

/// The one rule by which media pausing, call detection and the engine's lookups drop an
/// answer that a later event superseded.
@Suite("Reading order: superseded answers dropped")
struct ReadingOrderTests {
    /// Which of `answers` (object, place), given in turn, the order takes.
    static func taken<Key: Hashable & Sendable>(_ answers: [(Key, UInt64)]) -> [Bool] {
        var order = ReadingOrder<Key>()
        return answers.map { order.isCurrent($0.0, $0.1) }
    }

    @Test("an answer older than one taken for the same object is dropped; newer ones are taken")
    func olderDropped() {
        // Read before the event at 5: superseded; the event at 5 answered again stays current.
        #expect(Self.taken([("stream 7", 5), ("stream 7", 3), ("stream 7", 5), ("stream 7", 8), ("stream 7", 6)])
                == [true, false, true, true, false])
    }

    @Test("objects are ordered apart: one object's newer event does not drop another's answer")
    func perObject() {
        #expect(Self.taken([("sink 1", 10), ("sink 2", 4), ("server", 1)]) == [true, true, true])
    }

    @Test("a removal taken without reading drops a reading asked before it")
    func removalFirst() {
        #expect(Self.taken([(3, 9), (3, 8)]) == [true, false])
    }
}
