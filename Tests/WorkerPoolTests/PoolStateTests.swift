@testable import WorkerPool
import Testing

/// The worker pool's decisions, as values: when a job wakes a worker or starts one, which
/// delayed jobs are due, and that with nothing delayed the timer thread waits with no timeout
/// (an idle routectl wakes for nothing).
@Suite("routectl's worker pool decisions")
struct PoolStateTests {
    /// Clocks that read what the test says.
    struct Clocks {
        var continuous: UInt64 = 1_000
        var suspending: UInt64 = 500

        func now(_ clock: PoolClock) -> UInt64 {
            clock == .continuous ? continuous : suspending
        }
    }

    @Test("a job starts a worker while the pool is below its width, then waits in line, first queued first run")
    func growsToItsWidth() {
        var state = PoolState<String>(width: 2)
        #expect(state.push("a") == .newWorker)
        #expect(state.push("b") == .newWorker)
        #expect(state.push("c") == .none, "two workers are busy: the third job waits for one of them")
        #expect(state.workers == 2)
        #expect([state.pop(), state.pop(), state.pop(), state.pop()] == ["a", "b", "c", nil])
        #expect(state.readyCount == 0)
    }

    @Test("a sleeping worker is woken once per job, and a job nobody can take starts a worker")
    func wakesSleepers() {
        var state = PoolState<String>(width: 2)
        #expect(state.push("a") == .newWorker)
        #expect(state.pop() == "a")
        state.workerWillSleep()
        #expect(state.push("b") == .worker)
        #expect(state.push("c") == .newWorker, "the sleeper is already woken for b")
        state.workerDidWake()
        state.workerWillSleep()
        #expect(state.push("d") == .worker, "a worker back to sleep can be woken again")
    }

    @Test("the first delayed job starts the timer; an earlier deadline wakes it, a later one does not")
    func wakesTheTimerOnlyForEarlierDeadlines() {
        let clocks = Clocks()
        var state = PoolState<String>(width: 1)
        #expect(state.schedule("in 100", at: 1_100, on: .continuous, now: clocks.now) == .newTimer)
        #expect(state.hasTimer)
        #expect(state.schedule("in 200", at: 1_200, on: .continuous, now: clocks.now) == .none)
        #expect(state.schedule("in 50", at: 550, on: .suspending, now: clocks.now) == .timer)
        #expect(state.nextTimeout(now: clocks.now) == 50)
        #expect(state.delayedCount == 3)
    }

    @Test("only the jobs due on their own clock are released, the longest overdue first; the others keep their wait")
    func releasesDueJobs() {
        var clocks = Clocks()
        var state = PoolState<String>(width: 4)
        _ = state.schedule("continuous later", at: 1_300, on: .continuous, now: clocks.now)
        _ = state.schedule("suspending", at: 600, on: .suspending, now: clocks.now)
        _ = state.schedule("continuous", at: 1_100, on: .continuous, now: clocks.now)
        #expect(state.releaseDue(now: clocks.now).isEmpty, "nothing is due yet")

        clocks.continuous = 1_150
        clocks.suspending = 630
        #expect(state.releaseDue(now: clocks.now) == [.newWorker, .newWorker])
        #expect([state.pop(), state.pop(), state.pop()] == ["continuous", "suspending", nil],
                "50 late on its clock comes before 30 late on the other")
        #expect(state.delayedCount == 1)
        #expect(state.nextTimeout(now: clocks.now) == 150)
    }

    @Test("a deadline already passed is due at once, with no wait")
    func pastDeadline() {
        let clocks = Clocks()
        var state = PoolState<String>(width: 1)
        _ = state.schedule("late", at: 10, on: .continuous, now: clocks.now)
        #expect(state.nextTimeout(now: clocks.now) == 0)
        #expect(state.releaseDue(now: clocks.now) == [.newWorker])
        #expect(state.pop() == "late")
    }

    @Test("with nothing delayed the timer waits with no timeout: an idle routectl wakes for nothing")
    func noTimeoutWhenIdle() {
        let clocks = Clocks()
        var state = PoolState<String>(width: 1)
        #expect(state.nextTimeout(now: clocks.now) == nil)
        _ = state.schedule("soon", at: 1_001, on: .continuous, now: clocks.now)
        var later = clocks
        later.continuous = 2_000
        _ = state.releaseDue(now: later.now)
        #expect(state.nextTimeout(now: later.now) == nil, "once the last delayed job is out, the timer waits untimed again")
    }
}
