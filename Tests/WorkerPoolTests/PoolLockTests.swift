import CThreadPlacement
import Foundation
import Glibc
import Synchronization
import Testing
@testable import WorkerPool

/// The pool's wakes: kept when they come before their waiter waits, timed when asked, and
/// never a wait for the thread that sends them, even while a thread woken earlier cannot run
/// (glibc's condition variables wait for it: the libpulse thread that feeds the pool did).
@Suite("routectl's worker pool wakes")
struct PoolLockTests {
    @Test("a wake sent before anyone waits is kept for the next waiter")
    func wakeBeforeWaitIsKept() {
        let lock = PoolLock()
        lock.signal(.work)
        #expect(lock.wait(on: .work, nanoseconds: 0))
        #expect(!lock.wait(on: .work, nanoseconds: 0), "one wake woke one wait")
    }

    @Test("a timed wait with no wake ends at its deadline, not before")
    func timedWaitEnds() {
        let lock = PoolLock()
        let start = ContinuousClock.now
        #expect(!lock.wait(on: .timer, nanoseconds: 20_000_000))
        #expect(ContinuousClock.now - start >= .milliseconds(20))
    }

    @Test("waking a waiter never waits for one woken earlier that has not run yet",
          .enabled(if: sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2, "needs two processors"))
    func wakingNeverWaits() async throws {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<StarvedWake.Outcome, Never>) in
            Thread { continuation.resume(returning: StarvedWake().run()) }.start()
        }
        #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
        #expect(outcome.switchesWhileWaking == 0,
                "the waking thread waited \(outcome.switchesWhileWaking) time(s) for the starved waiter")
        #expect(outcome.waitersDone == 2, "every waiter woke in the end")
    }
}

/// One waiter woken, then kept from running: it shares processor 0 with the thread that woke
/// it, which spins, and it is in SCHED_IDLE. A second waiter (processor 1) then waits, and is
/// woken too. The waking thread counts its own voluntary context switches around that wake.
private final class StarvedWake: Sendable {
    struct Outcome: Sendable {
        var switchesWhileWaking = 0
        var waitersDone = 0
        var failure: String?
    }

    private let lock = PoolLock()
    private let starvedID = Atomic<Int32>(0)
    private let secondID = Atomic<Int32>(0)
    private let secondMayWait = Atomic<Bool>(false)
    private let secondWoke = Atomic<Bool>(false)
    private let waitersDone = Atomic<Int>(0)

    /// Runs on a thread of its own, which it pins to processor 0.
    func run() -> Outcome {
        var outcome = Outcome()
        guard routekit_test_pin_thread(0) == 0 else { return Outcome(failure: "cannot pin a thread to processor 0") }
        Thread { [self] in
            guard routekit_test_pin_thread(0) == 0, routekit_test_make_thread_idle_class() == 0 else {
                starvedID.store(-1, ordering: .releasing)
                return
            }
            starvedID.store(Int32(routekit_test_thread_id()), ordering: .releasing)
            lock.wait(on: .work)
            waitersDone.add(1, ordering: .relaxed)
        }.start()
        Thread { [self] in
            _ = routekit_test_pin_thread(1)
            secondID.store(Int32(routekit_test_thread_id()), ordering: .releasing)
            while !secondMayWait.load(ordering: .acquiring) {}
            lock.wait(on: .work)
            secondWoke.store(true, ordering: .releasing)
            waitersDone.add(1, ordering: .relaxed)
        }.start()
        // The starved waiter must reach its wait first: this thread sleeps meanwhile.
        guard Self.poll(sleeping: true, until: { [self] in
            let id = starvedID.load(ordering: .acquiring)
            return id < 0 || (id > 0 && Self.isWaiting(id))
        }), starvedID.load(ordering: .acquiring) > 0 else {
            return Outcome(failure: "the starved waiter never waited (SCHED_IDLE refused?)")
        }
        // From here this thread keeps processor 0 busy: the woken waiter cannot run.
        lock.signal(.work)
        secondMayWait.store(true, ordering: .releasing)
        let secondReady = Self.poll(sleeping: false, until: { [self] in
            let id = secondID.load(ordering: .acquiring)
            return secondWoke.load(ordering: .acquiring) || (id > 0 && Self.isWaiting(id))
        })
        let before = routekit_test_voluntary_switches()
        lock.signal(.work)
        outcome.switchesWhileWaking = routekit_test_voluntary_switches() - before
        if !secondReady { outcome.failure = "the second waiter never waited" }
        // Let everyone run and finish.
        _ = Self.poll(sleeping: true, until: { [self] in waitersDone.load(ordering: .relaxed) == 2 })
        outcome.waitersDone = waitersDone.load(ordering: .relaxed)
        return outcome
    }

    /// Polls `condition` for at most 10 seconds, sleeping a millisecond between looks or
    /// spinning. True when it held.
    private static func poll(sleeping: Bool, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            if sleeping { usleep(1000) }
        }
        return condition()
    }

    /// Whether thread `id` of this process is asleep (its state in /proc is S).
    private static func isWaiting(_ id: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first == "S"
    }
}
