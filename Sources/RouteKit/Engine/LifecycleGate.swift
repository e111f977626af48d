import ConcurrencySupport

/// Lets one lifecycle transition (start or stop) run at a time, in the order they were asked
/// for: concurrent ``AudioDeviceManager/start()`` and ``AudioDeviceManager/stop()`` calls wait
/// for each other instead of interleaving.
final class LifecycleGate: Sendable {
    private struct State {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    init() {}

    /// Runs `body` alone; waits its turn first. Not cancellable while waiting: a transition
    /// that was asked for happens.
    func run<Result: Sendable, Failure: Error>(_ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                guard state.isHeld else {
                    state.isHeld = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.isHeld = false
                return nil
            }
            return state.waiters.removeFirst()  // the gate passes straight to the next one
        }
        next?.resume()
    }
}
