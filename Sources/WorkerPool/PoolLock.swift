import CPoolSemaphore
import Glibc

/// A pthread mutex for the pool's state, and two semaphores: one the pool's workers wait on,
/// one its timer thread waits on. Waits have no timeout unless one is given, so a thread that
/// waits costs no wake-up until it is woken.
///
/// Semaphores, not condition variables: waking a thread must never wait for another one.
/// glibc's `pthread_cond_signal` can block until a waiter it woke earlier has run (it
/// quiesces the condition's older group of waiters before switching groups), and jobs come
/// from libpulse's event thread: on a two-core machine busy with a switch, that thread was
/// seen blocked there for up to 374 µs (Docs/Executors.md). `sem_post` only counts and wakes.
/// A wake that comes before its waiter waits is counted, never lost.
///
/// `@unchecked Sendable`: the mutex and semaphores live at fixed addresses for the lock's life
/// and are only used through pthread and semaphore calls, which synchronise themselves.
package final class PoolLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let work: OpaquePointer
    private let timer: OpaquePointer

    /// Which semaphore a thread waits on or wakes.
    package enum Condition {
        case work
        case timer
    }

    package init() {
        pthread_mutex_init(mutex, nil)
        guard let work = routekit_pool_semaphore_create(), let timer = routekit_pool_semaphore_create() else {
            preconditionFailure("routectl: cannot create the worker pool's semaphores")
        }
        self.work = work
        self.timer = timer
    }

    deinit {
        routekit_pool_semaphore_destroy(timer)
        routekit_pool_semaphore_destroy(work)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, without the mutex, until `condition` is woken (a wake that came before counts),
    /// at most `nanoseconds` when given. True when woken, false when the time ran out.
    @discardableResult
    package func wait(on condition: Condition, nanoseconds: UInt64? = nil) -> Bool {
        let semaphore = pointer(condition)
        guard let nanoseconds else {
            routekit_pool_semaphore_wait(semaphore)
            return true
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (deadline, overflow) = (UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)).addingReportingOverflow(nanoseconds)
        return routekit_pool_semaphore_wait_until(semaphore, overflow ? .max : deadline) == 1
    }

    /// Wakes one thread waiting on `condition`, or the next one to wait. Never blocks.
    package func signal(_ condition: Condition) {
        routekit_pool_semaphore_post(pointer(condition))
    }

    private func pointer(_ condition: Condition) -> OpaquePointer {
        switch condition {
        case .work: work
        case .timer: timer
        }
    }
}
