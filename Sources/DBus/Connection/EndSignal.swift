import ConcurrencySupport

/// How a connection ended: closed by its owner, or lost.
public enum BusDisconnection: Hashable, Sendable, CustomStringConvertible {
    /// ``BusConnection/close()`` closed it.
    case closed
    /// The bus went away, or dropped the connection; the error says how.
    case lost(BusError)

    /// For logs.
    public var description: String {
        switch self {
        case .closed: "closed"
        case .lost(let error): "lost: \(error.message)"
        }
    }
}

/// Fires once, when the connection's thread ends, and wakes everyone waiting for it.
final class EndSignal: Sendable {
    private struct State {
        var outcome: BusDisconnection?
        var waiters: [Int: CheckedContinuation<BusDisconnection?, Never>] = [:]
        var nextWaiter = 0
        var cancelled: Set<Int> = []
    }

    private let state = LockedValue(State())

    /// Whether it has fired.
    var hasFired: Bool { state.withLock { $0.outcome != nil } }

    /// Records how the connection ended and wakes the waiters; later calls do nothing.
    func fire(_ outcome: BusDisconnection) {
        let waiters = state.withLock { state -> [CheckedContinuation<BusDisconnection?, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        // Resumed outside the lock: resuming only enqueues the tasks.
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// How the connection ended, once it has; nil when the waiting task is cancelled first.
    func wait() async -> BusDisconnection? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let settled: BusDisconnection?? = state.withLock { state in
                    if let outcome = state.outcome { return .some(outcome) }
                    if state.cancelled.remove(id) != nil { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            // Takes only this signal's own lock, briefly, and resumes outside it.
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    if state.outcome == nil { state.cancelled.insert(id) }
                    return nil as CheckedContinuation<BusDisconnection?, Never>?
                }
                return waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
