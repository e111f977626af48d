import ConcurrencySupport
import Synchronization
import Testing

/// The one way RouteKit bounds work by time: what ends first decides, nothing outlives the
/// race, and nothing the work took is lost to the clock.
@Suite("Deadline: work raced against a deadline")
struct DeadlineTests {
    /// Longer than any run of this suite could take: a race that waited for it would hang.
    static let never = ContinuousClock.now + .seconds(3600)

    @Test("work that ends first gives its value at once, without waiting for the deadline")
    func workFirst() async {
        let started = ContinuousClock.now
        let outcome = await withDeadline(Self.never) { 42 }
        #expect(outcome.value == 42)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("a deadline that comes first cancels the work and waits for its end")
    func deadlineFirst() async throws {
        let ended = Mutex(false)
        let outcome = try await withDeadline(.now + .milliseconds(20)) {
            defer { ended.withLock { $0 = true } }
            try await Task.sleep(until: Self.never, clock: .continuous)
            return 1
        }
        guard case .deadlinePassed(let late) = outcome else {
            Issue.record("expected the deadline, got \(outcome)")
            return
        }
        #expect(late == nil, "the work threw once cancelled: nothing late")
        #expect(outcome.value == nil)
        #expect(ended.withLock { $0 }, "the work has ended before the race returns")
    }

    @Test("what the work returns once cancelled comes back with the deadline, not lost")
    func lateValueKept() async {
        let outcome = await withDeadline(.now + .milliseconds(20)) {
            // A waiter handed something as it is cancelled returns it.
            while !Task.isCancelled { await Task.yield() }
            return "taken"
        }
        guard case .deadlinePassed(let late) = outcome else {
            Issue.record("expected the deadline, got \(outcome)")
            return
        }
        #expect(late == "taken")
    }

    struct Refused: Error, Equatable {}

    @Test("an error the work throws before the deadline is thrown")
    func errorThrown() async {
        await #expect(throws: Refused.self) {
            _ = try await withDeadline(Self.never) { () async throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test("a deadline already past does not start the work")
    func pastDeadline() async {
        let started = Mutex(false)
        let outcome = await withDeadline(.now - .milliseconds(1)) {
            started.withLock { $0 = true }
            return 1
        }
        guard case .deadlinePassed(nil) = outcome else {
            Issue.record("expected the deadline, got \(outcome)")
            return
        }
        #expect(!started.withLock { $0 })
    }

    @Test("cancelling the caller cancels the work, and its own outcome is returned")
    func callerCancelled() async {
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let race = Task {
            await withDeadline(Self.never) {
                enter.yield()
                while !Task.isCancelled { await Task.yield() }
                return "cancelled"
            }
        }
        for await _ in entered { break }
        race.cancel()
        let outcome = await race.value
        #expect(outcome.value == "cancelled")
    }

    @Test("untilDeadline: the value before the deadline, nil after it or on an error")
    func untilDeadlineValues() async {
        #expect(await untilDeadline(Self.never) { 7 } == 7)
        #expect(await untilDeadline(Self.never) { throw Refused() } as Int? == nil)
        #expect(await untilDeadline(.now + .milliseconds(20)) {
            try await Task.sleep(until: Self.never, clock: .continuous)
            return 7
        } == nil)
    }
}
