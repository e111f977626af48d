import ConcurrencySupport

/// One outgoing call, from the moment it is queued until its caller has been resumed exactly
/// once: with the reply, with an error (the peer's, a timeout, the connection's end), or with
/// `CancellationError` when the calling task is cancelled.
///
/// sd-bus holds a retained pointer to it (the call's `userdata`) until the call's slot is
/// destroyed, which always happens: after the reply, when the connection closes, and when the
/// bus is freed (`callSlotDestroyed` releases it and fails the call if nothing answered).
final class PendingCall: Sendable {
    private enum State {
        case waiting(CheckedContinuation<[BusValue], any Error>?)
        case resolved(Result<[BusValue], any Error>)
    }

    /// What was asked, for error messages: `org.freedesktop.DBus.GetNameOwner`.
    let label: String
    private let state = LockedValue(State.waiting(nil))

    init(label: String) {
        self.label = label
    }

    /// Resumes the caller once; later calls do nothing.
    func resolve(_ result: Result<[BusValue], any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<[BusValue], any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .resolved(result)
            return continuation
        }
        // Outside the lock: resuming only enqueues the caller's task.
        continuation?.resume(with: result)
    }

    /// Waits for ``resolve(_:)``; a cancelled task gets `CancellationError` at once (the
    /// reply, when it comes, is dropped).
    func value() async throws -> [BusValue] {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let settled = state.withLock { state -> Result<[BusValue], any Error>? in
                    switch state {
                    case .resolved(let result): return result
                    case .waiting: state = .waiting(continuation); return nil
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        } onCancel: {
            // Takes only this call's own lock and resumes outside it: never the bus thread's work.
            resolve(.failure(CancellationError()))
        }
    }
}
