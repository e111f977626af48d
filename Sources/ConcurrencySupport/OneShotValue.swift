/// A value given once and awaited by any number of tasks: ``give(_:)`` settles it (later
/// gifts change nothing), and ``value()`` returns it, now or once it comes.
///
/// ```swift
/// let answer = OneShotValue<Int>()
/// async let seen = answer.value()
/// answer.give(42)
/// print(await seen)  // Optional(42)
/// ```
package final class OneShotValue<Value: Sendable>: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<Value?, Never>])
        case given(Value)
    }

    private struct Shared {
        var state = State.waiting([:])
        var nextWaiter = 0
    }

    private let shared = LockedValue(Shared())

    /// Nothing given yet.
    package init() {}

    /// Settles the value and wakes every waiter; the first gift wins.
    package func give(_ value: Value) {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Value?, Never>] in
            guard case .waiting(let waiters) = shared.state else { return [] }
            shared.state = .given(value)
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, at once if it was given; nil when the waiting task is cancelled first.
    package func value() async -> Value? {
        let id = shared.withLock { shared -> Int in
            defer { shared.nextWaiter += 1 }
            return shared.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let now = shared.withLock { shared -> Value?? in
                    switch shared.state {
                    case .given(let value):
                        return .some(value)
                    case .waiting(var waiters):
                        if Task.isCancelled { return .some(nil) }
                        waiters[id] = continuation
                        shared.state = .waiting(waiters)
                        return nil
                    }
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = shared.withLock { shared -> CheckedContinuation<Value?, Never>? in
                guard case .waiting(var waiters) = shared.state, let waiter = waiters.removeValue(forKey: id) else { return nil }
                shared.state = .waiting(waiters)
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
