/// The clock a delayed job waits on: `ContinuousClock` counts time asleep (Linux's
/// `CLOCK_BOOTTIME`), `SuspendingClock` does not (`CLOCK_MONOTONIC`).
package enum PoolClock: Sendable, Hashable {
    case continuous
    case suspending
}

/// What a change to ``PoolState`` asks of the threads; the executor performs it after
/// releasing its lock.
package enum PoolWake: Equatable, Sendable {
    /// Nothing: a worker is already awake or on its way to the job.
    case none
    /// Wake one sleeping worker.
    case worker
    /// Start one more worker thread (the pool is below its width and every worker is busy).
    case newWorker
    /// Wake the timer thread: its earliest deadline moved closer.
    case timer
    /// Start the timer thread (the first delayed job).
    case newTimer
}

/// Everything routectl's worker pool decides, as a value: the jobs waiting to run, the
/// delayed jobs in deadline order, and how many workers there are and sleep. It never blocks
/// or starts threads: it returns what the executor must do (``PoolWake``). Generic over the
/// job so that tests use plain values.
package struct PoolState<Job> {
    /// A job that waits for `deadline`, a reading of `clock` in nanoseconds.
    struct Delayed {
        var deadline: UInt64
        var clock: PoolClock
        var order: UInt64
        var job: Job
    }

    /// The most workers the pool starts.
    package let width: Int
    private var ready: [Job] = []
    private var readyHead = 0
    private var delayed: [Delayed] = []
    private var nextOrder: UInt64 = 0
    /// Worker threads started.
    package private(set) var workers = 0
    /// Workers waiting for a job.
    private var sleepers = 0
    /// Wakes sent to sleepers that have not woken yet: those sleepers are spoken for.
    private var wakesInFlight = 0
    /// Whether the timer thread was started.
    package private(set) var hasTimer = false

    /// A pool of at most `width` workers (at least 1).
    package init(width: Int) {
        self.width = max(1, width)
    }

    /// Jobs waiting for a worker.
    package var readyCount: Int { ready.count - readyHead }

    /// Delayed jobs not due yet.
    package var delayedCount: Int { delayed.count }

    /// Queues `job` to run now.
    package mutating func push(_ job: Job) -> PoolWake {
        ready.append(job)
        if sleepers - wakesInFlight > 0 {
            wakesInFlight += 1
            return .worker
        }
        if workers < width {
            workers += 1
            return .newWorker
        }
        return .none
    }

    /// The next job to run, first queued first; nil when there is none.
    package mutating func pop() -> Job? {
        guard readyHead < ready.count else { return nil }
        let job = ready[readyHead]
        readyHead += 1
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        }
        return job
    }

    /// A worker found nothing to do and is about to wait.
    package mutating func workerWillSleep() {
        sleepers += 1
    }

    /// A worker stopped waiting (woken, or spuriously).
    package mutating func workerDidWake() {
        sleepers -= 1
        if wakesInFlight > 0 { wakesInFlight -= 1 }
    }

    /// Keeps `job` until `deadline` (nanoseconds of `clock`). `now` reads the clocks.
    package mutating func schedule(_ job: Job, at deadline: UInt64, on clock: PoolClock,
                                   now: (PoolClock) -> UInt64) -> PoolWake {
        let before = nextTimeout(now: now)
        delayed.append(Delayed(deadline: deadline, clock: clock, order: nextOrder, job: job))
        nextOrder += 1
        guard hasTimer else {
            hasTimer = true
            return .newTimer
        }
        guard let before else { return .timer }
        return deadline.subtractingClamped(now(clock)) < before ? .timer : .none
    }

    /// Moves the delayed jobs whose deadline has come to the ready queue, the longest overdue
    /// first (then first scheduled first); returns what that asks of the workers, one wake per job at most.
    package mutating func releaseDue(now: (PoolClock) -> UInt64) -> [PoolWake] {
        var readings: [PoolClock: UInt64] = [:]
        func reading(_ clock: PoolClock) -> UInt64 {
            if let value = readings[clock] { return value }
            let value = now(clock)
            readings[clock] = value
            return value
        }
        // Each due job with how long ago its deadline passed, on its own clock.
        var due: [(late: UInt64, entry: Delayed)] = []
        delayed.removeAll { entry in
            let current = reading(entry.clock)
            guard entry.deadline <= current else { return false }
            due.append((current - entry.deadline, entry))
            return true
        }
        due.sort { ($1.late, $0.entry.order) < ($0.late, $1.entry.order) }
        return due.map { push($0.entry.job) }.filter { $0 != .none }
    }

    /// How long the timer thread may wait before a delayed job is due, in nanoseconds; nil
    /// when none is kept (it waits until woken).
    package func nextTimeout(now: (PoolClock) -> UInt64) -> UInt64? {
        var readings: [PoolClock: UInt64] = [:]
        var shortest: UInt64?
        for entry in delayed {
            let current = readings[entry.clock] ?? now(entry.clock)
            readings[entry.clock] = current
            let wait = entry.deadline.subtractingClamped(current)
            shortest = min(shortest ?? wait, wait)
        }
        return shortest
    }
}

extension UInt64 {
    /// `self - other`, or 0 when `other` is later.
    fileprivate func subtractingClamped(_ other: UInt64) -> UInt64 {
        self > other ? self - other : 0
    }
}
