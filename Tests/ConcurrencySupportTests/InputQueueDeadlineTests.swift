import ConcurrencySupport
import Testing

/// A loop's wait for its next batch, bounded by its machine's next deadline.
@Suite("Input queue: waiting until a deadline")
struct InputQueueDeadlineTests {
    @Test("the deadline ends the wait with an empty batch; what comes after is in the next batch")
    func deadlineEndsWait() async {
        let queue = InputQueue<Int>()
        let batch = await queue.nextBatch(until: .now + .milliseconds(20))
        #expect(batch == [])
        queue.push(1)
        queue.push(2)
        #expect(await queue.nextBatch(until: .now + .seconds(3600)) == [1, 2])
    }

    @Test("an element pushed while waiting ends the wait before the deadline")
    func elementFirst() async {
        let queue = InputQueue<Int>()
        async let batch = queue.nextBatch(until: .now + .seconds(3600))
        queue.push(5)
        #expect(await batch == [5])
    }

    @Test("a finished queue answers nil, deadline or not")
    func finished() async {
        let queue = InputQueue<Int>()
        queue.finish()
        #expect(await queue.nextBatch(until: .now + .seconds(3600)) == nil)
    }
}
