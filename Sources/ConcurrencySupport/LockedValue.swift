import CThreadSanitizerHooks
import Synchronization

/// A value that threads share, reached only under its lock: a `Synchronization.Mutex` that
/// ThreadSanitizer can see.
///
/// `Mutex` locks with futex system calls, which ThreadSanitizer does not intercept, so every
/// access made under one looks to it like a race, and a real race hides among them. This
/// tells ThreadSanitizer when the lock is taken and released (`__tsan_acquire` and
/// `__tsan_release`, which do nothing when its runtime is not linked), so that the suite can
/// run under it with no suppression for the package's own code (Docs/Testing.md).
///
/// ```swift
/// let counts = LockedValue([String: Int]())
/// counts.withLock { $0["calls", default: 0] += 1 }
/// let calls = counts.withLock { $0["calls"] ?? 0 }
/// ```
package final class LockedValue<Value>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock around `value`.
    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock, and returns what it returns. Never call it
    /// again from `body` (the lock is not recursive), and never wait in `body`.
    @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let lock = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            routekit_lock_acquired(lock)
            defer { routekit_lock_releasing(lock) }
            return try body(&value)
        }
    }
}
