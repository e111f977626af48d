@_spi(ExperimentalScheduling) import _Concurrency
import Glibc

/// routectl's global concurrent executor: a few worker threads of its own, and a timer thread
/// for delayed jobs (`Task.sleep`), that all sleep on semaphores with no timeout while there
/// is nothing to do. An idle `routectl daemon` thus wakes for nothing, and queueing a job
/// never waits for another thread (``PoolLock``).
///
/// Swift's default executor on Linux runs jobs on libdispatch's global queues, whose first
/// worker arms a one-second timer (libdispatch's worker-pool monitor) that fires for the rest
/// of the process's life: the idle daemon's 60 wake-ups a minute. ``RouteCtlExecutors``
/// installs this one instead, in the `routectl` executable only.
///
/// Workers start when jobs come and every worker is busy, up to ``width``, and never end.
/// Unlike libdispatch's pool this one never grows past its width when jobs block, so jobs
/// must not block (Swift concurrency's rule anyway). Threads block every asynchronous signal,
/// as libdispatch's do: `routectl daemon` receives SIGTERM and SIGHUP through libdispatch's
/// signalfd, which only sees signals no thread accepts. Delayed jobs wait on the monotonic
/// clock: a `ContinuousClock` deadline that falls while the machine sleeps runs at most that
/// long after it. Priorities are not honoured: jobs run first queued, first run.
///
/// `@unchecked Sendable`: `state` is only touched with `lock` held.
package final class WorkerPoolExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private let lock = PoolLock()
    private var state: PoolState<UnownedJob>
    private let name: String

    /// The most worker threads the pool starts.
    package var width: Int { state.width }

    /// A pool of at most `width` workers, whose threads are called `name` (15 bytes at most
    /// show).
    package init(width: Int, name: String) {
        state = PoolState(width: width)
        self.name = name
    }

    /// As many workers as processors online (at least 2), the width of libdispatch's pool:
    /// more made route changes cost more context switches and CPU, not less.
    package static func forThisMachine(name: String) -> WorkerPoolExecutor {
        WorkerPoolExecutor(width: max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), name: name)
    }

    /// Runs `job` on a worker, as soon as one is free.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = lock.withLock { state.push(job) }
        perform(wake)
    }

    /// Runs `job` on a worker once `delay` has passed on `clock` (a `ContinuousClock` or a
    /// `SuspendingClock`, as `Task.sleep` uses; another clock counts as a continuous one).
    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration,
                                   tolerance: C.Duration?, clock: C) {
        let kind = Self.kind(of: clock)
        schedule(UnownedJob(job), in: Self.nanoseconds(delay), on: kind)
    }

    /// Runs `job` on a worker once `clock` reads `instant`.
    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant,
                                   tolerance: C.Duration?, clock: C) {
        let kind = Self.kind(of: clock)
        schedule(UnownedJob(job), in: Self.nanoseconds(clock.now.duration(to: instant)), on: kind)
    }

    private func schedule(_ job: UnownedJob, in nanoseconds: UInt64, on clock: PoolClock) {
        let deadline = Self.now(clock).addingReportingOverflow(nanoseconds)
        let wake = lock.withLock {
            state.schedule(job, at: deadline.overflow ? .max : deadline.partialValue, on: clock, now: Self.now)
        }
        perform(wake)
    }

    private func perform(_ wake: PoolWake) {
        switch wake {
        case .none: break
        case .worker: lock.signal(.work)
        case .timer: lock.signal(.timer)
        case .newWorker: startThread(named: name) { $0.runWorker() }
        case .newTimer: startThread(named: name + "-timer") { $0.runTimer() }
        }
    }

    /// A worker's life: runs jobs, and sleeps while there are none. It waits without the
    /// lock, so that a wake sent meanwhile is counted by the semaphore, never lost.
    private func runWorker() -> Never {
        let executor = asUnownedTaskExecutor()
        var woke = false
        while true {
            let job = lock.withLock { () -> UnownedJob? in
                if woke { state.workerDidWake() }
                if let job = state.pop() { return job }
                state.workerWillSleep()
                return nil
            }
            if let job {
                woke = false
                job.runSynchronously(on: executor)
            } else {
                lock.wait(on: .work)
                woke = true
            }
        }
    }

    /// The timer thread's life: moves due jobs to the workers, and sleeps until the next
    /// deadline, or until woken when there is none (or an earlier one came).
    private func runTimer() -> Never {
        while true {
            let (wakes, timeout) = lock.withLock { () -> ([PoolWake], UInt64?) in
                let wakes = state.releaseDue(now: Self.now)
                return (wakes, wakes.isEmpty ? state.nextTimeout(now: Self.now) : nil)
            }
            guard wakes.isEmpty else {
                wakes.forEach(perform)
                continue
            }
            lock.wait(on: .timer, nanoseconds: timeout)
        }
    }

    /// Starts a detached thread that runs `body` with every asynchronous signal blocked.
    private func startThread(named name: String, _ body: @escaping @Sendable (WorkerPoolExecutor) -> Never) {
        startDetachedThread(named: name) { [self] in body(self) }
    }

    /// Nanoseconds on `clock`'s Linux clock.
    private static func now(_ clock: PoolClock) -> UInt64 {
        var reading = timespec()
        clock_gettime(clock == .continuous ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &reading)
        return UInt64(reading.tv_sec) * 1_000_000_000 + UInt64(reading.tv_nsec)
    }

    private static func kind<C: Clock>(of clock: C) -> PoolClock {
        clock is SuspendingClock ? .suspending : .continuous
    }

    /// `duration` in nanoseconds, 0 when negative; a clock whose durations are not
    /// `Swift.Duration` is not one routectl uses.
    private static func nanoseconds<D>(_ duration: D) -> UInt64 {
        guard let duration = duration as? Duration else {
            preconditionFailure("routectl's executor schedules on clocks measured in Duration only, not \(D.self)")
        }
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000)).partialValue
    }
}
