import AudioContext
import ConcurrencySupport

/// Whether volume capture is armed: holding the default output (its level read and held, so
/// that any later change is a press) or waiting for one. `StartVolumeCapture` answers once it
/// is, so that a client's first press, made right after the answer, is seen rather than undone
/// by the hold that capture was still setting up.
final class VolumeCaptureArming: Sendable {
    private struct State {
        var isArmed = false
        var waiters: [OneShotValue<Void>] = []
    }

    private let state = LockedValue(State())

    /// Not armed.
    init() {}

    /// Something to await until capture is armed; nil when it is already.
    func waiter() -> OneShotValue<Void>? {
        state.withLock { state in
            guard !state.isArmed else { return nil }
            let waiter = OneShotValue<Void>()
            state.waiters.append(waiter)
            return waiter
        }
    }

    /// Capture reported `event`: holding a sink, or waiting for one, arms it; letting go of a
    /// sink (stopped, or the default output moved away) disarms it until the next.
    func note(_ event: VolumeCaptureEvent) {
        switch event {
        case .capturing, .waitingForSink:
            let waiting = state.withLock { state -> [OneShotValue<Void>] in
                state.isArmed = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiting { waiter.give(()) }
        case .released:
            state.withLock { $0.isArmed = false }
        case .pressed:
            break
        }
    }

    /// Capture is being turned off: not armed from now on, and whoever waited for it is let go.
    func disarm() {
        let waiting = state.withLock { state -> [OneShotValue<Void>] in
            state.isArmed = false
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.give(()) }
    }
}
