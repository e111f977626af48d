import ConcurrencySupport
import TestSupport

/// Holds back the answers of one kind of request until the test lets them go, and records
/// what was asked while holding: a test server in front of a simulated one uses it to show
/// what the engine does while an answer is out.
final class AnswerHold: Sendable {
    private struct State {
        var isHolding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var asked: RecordedEvents<String>?
    }

    private let state = LockedValue(State())

    /// Holds answers from now on; returns what is asked meanwhile (``record(_:)``, ``pass(asking:)``).
    func start() -> RecordedEvents<String> {
        let asked = RecordedEvents<String>()
        state.withLock {
            $0.isHolding = true
            $0.asked = asked
        }
        return asked
    }

    /// Lets every held answer go, and later ones through.
    func release() {
        let waiting = state.withLock { state in
            state.isHolding = false
            state.asked = nil
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Records `request` if answers are being held, without holding it.
    func record(_ request: String) async {
        if let asked = state.withLock({ $0.asked }) { await asked.append(request) }
    }

    /// Records `request` (when given) and returns once answers are not held.
    func pass(asking request: String? = nil) async {
        if let request { await record(request) }
        await withCheckedContinuation { continuation in
            let held = state.withLock { state -> Bool in
                guard state.isHolding else { return false }
                state.waiting.append(continuation)
                return true
            }
            if !held { continuation.resume() }
        }
    }
}
