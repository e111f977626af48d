import Glibc

/// A pthread mutex with two condition variables on `CLOCK_MONOTONIC`: one the pool's workers
/// wait on, one its timer thread waits on. Waits have no timeout unless one is given, so a
/// thread that waits costs no wake-up until it is signalled.
///
/// `@unchecked Sendable`: the pthread objects live at fixed addresses for the lock's life and
/// are only used through pthread calls, which synchronise themselves.
package final class PoolLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let work = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let timer = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Which condition a thread waits on or signals.
    package enum Condition {
        case work
        case timer
    }

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(work, &attributes)
        pthread_cond_init(timer, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(timer)
        pthread_cond_destroy(work)
        pthread_mutex_destroy(mutex)
        timer.deallocate()
        work.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits on `condition` (mutex held, from within ``withLock(_:)``), at most `nanoseconds`
    /// when given. May return early or spuriously: callers look at their state again.
    package func wait(on condition: Condition, nanoseconds: UInt64? = nil) {
        let variable = pointer(condition)
        guard let nanoseconds else {
            pthread_cond_wait(variable, mutex)
            return
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = UInt64(deadline.tv_nsec) + nanoseconds % 1_000_000_000
        let seconds = UInt64(deadline.tv_sec) + nanoseconds / 1_000_000_000 + total / 1_000_000_000
        deadline.tv_sec = Int(clamping: seconds)
        deadline.tv_nsec = Int(total % 1_000_000_000)
        pthread_cond_timedwait(variable, mutex, &deadline)
    }

    /// Wakes one thread waiting on `condition`.
    package func signal(_ condition: Condition) {
        pthread_cond_signal(pointer(condition))
    }

    private func pointer(_ condition: Condition) -> UnsafeMutablePointer<pthread_cond_t> {
        switch condition {
        case .work: work
        case .timer: timer
        }
    }
}
