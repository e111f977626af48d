import Synchronization

/// A value behind a lock that tasks and threads can share by reference.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Holds `value`.
    init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        mutex.withLock(body)
    }
}
