import ConcurrencySupport
import PulseAudio

/// One input of the engine's loop.
enum EngineInput: Sendable {
    /// What the server's connection delivered, and when it arrived.
    case server(PulseEvent, received: ContinuousClock.Instant)
    /// The server's connection was shut down: no event will come again.
    case serverGone
    /// An API call, and the ticket its caller waits on.
    case command(RouteCommand, CommandTicket)
    /// The answer to the loop's reading of the default on a new connection
    /// (``MissedDefaultCheck``); nil when the reading failed.
    case newConnectionReading(NewConnectionReading?)
    /// What a reading of streams for the mirror answered (``StreamTracker``).
    case streamsRead(StreamTracker.Answer)
    /// A follower asks for the sinks named (and the defaults, when `defaults`) to be read
    /// again, and for the first mirror that holds those readings
    /// (``AudioDeviceManager/mirror(readingAgain:defaults:)``).
    case readAgain(sinks: Set<String>, defaults: Bool, OneShotValue<ServerMirror>)
}

extension EngineInput {
    /// The connection changed or ended: what follows belongs to another connection, or to none.
    var isConnectionChange: Bool {
        switch self {
        case .server(.connectionStateChanged, _), .serverGone: true
        default: false
        }
    }
}

/// What an API caller waits on: the loop punches it once the machine has settled after the
/// command (no switch under way), or the caller stops waiting when its task is cancelled. The
/// command itself always runs in the loop, never in the caller's task. On the way the loop
/// notes what the caller is to be told: a refusal, and the failures the command settled through.
final class CommandTicket: Sendable {
    private enum Wait {
        case waiting
        case waiter(CheckedContinuation<Void, Never>)
        case done
    }

    /// What the loop noted for the caller.
    struct Report: Sendable {
        var refusal: CommandRefusal?
        var failures: [SwitchFailure] = []
    }

    private struct State {
        var wait = Wait.waiting
        var report = Report()
    }

    private let state = LockedValue(State())

    init() {}

    /// Waits until ``punch()``, or until the calling task is cancelled; returns what the loop noted.
    func wait() async -> Report {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard case .waiting = state.wait else { return true }
                    if Task.isCancelled { return true }
                    state.wait = .waiter(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            punch()
        }
        return state.withLock { $0.report }
    }

    /// The command was refused: nothing changed.
    func refuse(_ refusal: CommandRefusal) {
        state.withLock { $0.report.refusal = refusal }
    }

    /// A failure while the command settled.
    func note(_ failure: SwitchFailure) {
        state.withLock { $0.report.failures.append(failure) }
    }

    /// Ends the wait. Idempotent.
    func punch() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.wait = .done }
            if case .waiter(let continuation) = state.wait { return continuation }
            return nil
        }
        waiter?.resume()
    }
}

/// A one-shot outcome: ``succeed()`` or ``fail(_:)`` once, and ``value()`` returns or throws it.
/// Unlike `OneShotValue` its waiter waits through cancellation: `start()` returns only once the
/// run it began has said how it started, so that no run outlives a start that gave up on it.
final class OneShotResult: Sendable {
    private enum State {
        case pending([CheckedContinuation<Void, any Error>])
        case done((any Error)?)
    }

    private let state = LockedValue(State.pending([]))

    init() {}

    /// Settles with success; later calls change nothing.
    func succeed() { settle(nil) }

    /// Settles with `error`; later calls change nothing.
    func fail(_ error: any Error) { settle(error) }

    private func settle(_ error: (any Error)?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .pending(let waiters) = state else { return [] }
            state = .done(error)
            return waiters
        }
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
    }

    /// Waits for the outcome.
    func value() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let settled = state.withLock { state -> (any Error)?? in
                switch state {
                case .pending(let waiters):
                    state = .pending(waiters + [continuation])
                    return nil
                case .done(let error):
                    return .some(error)
                }
            }
            if let settled {
                if let error = settled { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
