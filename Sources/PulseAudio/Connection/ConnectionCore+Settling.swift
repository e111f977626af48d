import ConcurrencySupport
import CPulseAudio

/// Contexts given up while they connect are left to finish connecting, then closed.
///
/// pipewire-pulse binds PipeWire's "default" metadata for every client that connects, and
/// PipeWire counts that bind as pending until WirePlumber, the metadata's owner, answers a
/// ping; a client that goes before the answer leaves the count raised for good, and from then
/// on no change of the default reaches any connection already there, anybody's, until
/// WirePlumber restarts (seen on PipeWire 0.3.65: Docs/Reliability.md, "A miss for good";
/// `scripts/reliability/pipewire-pending-leak`). A libpulse context becomes ready only after
/// that answer. So a context that nobody waits for any more (a connection attempt cancelled at
/// its deadline, a renewal given up, a client shut down while connecting) is not closed while
/// it connects: it stays until it is ready or failed, which is when the server has answered.
/// On PulseAudio that is at once. A shutdown waits for such contexts at most
/// ``settlingLimit`` before it stops the loop.
extension ConnectionCore {
    /// The longest a shutdown waits for contexts still connecting.
    static let settlingLimit = Duration.seconds(5)

    /// Whether `context` is between connecting and ready (the server not yet answered).
    static func isConnecting(_ context: OpaquePointer) -> Bool {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_CONNECTING, PA_CONTEXT_AUTHORIZING, PA_CONTEXT_SETTING_NAME: true
        default: false
        }
    }

    /// Leaves `context`, still connecting, to finish before it closes (loop lock held).
    func closeWhenSettled(_ context: OpaquePointer) {
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_set_state_callback(context, settlingContextStateCallback, Unmanaged.passUnretained(self).toOpaque())
        settling.append(context)
    }

    /// libpulse's state callback for a context left to settle (loop thread, lock held).
    func settlingContextStateChanged(_ changed: OpaquePointer, _ newState: pa_context_state_t) {
        switch newState {
        case PA_CONTEXT_READY, PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            closeSettled(changed)
        default:
            break
        }
    }

    /// Closes a settled (or given-up) context and, when it was the last, lets a waiting
    /// shutdown go on (loop lock held).
    private func closeSettled(_ context: OpaquePointer) {
        guard let position = settling.firstIndex(of: context) else { return }
        settling.remove(at: position)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        if settling.isEmpty, let waiter = settledWaiter {
            settledWaiter = nil
            waiter.resume()
        }
    }

    /// Stops the loop once no context is left to settle, or after ``settlingLimit`` (closing
    /// what is left then): called by a shutdown that found contexts still connecting.
    func stopLoopWhenSettled() async {
        _ = await withDeadline(.now + Self.settlingLimit) { [self] in await waitUntilSettled() }
        loop.withLock {
            for context in settling { closeSettled(context) }
        }
        loop.stop()
    }

    /// Returns once no context is left to settle, or when the task is cancelled.
    private func waitUntilSettled() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                loop.withLock {
                    if settling.isEmpty || Task.isCancelled { continuation.resume() } else { settledWaiter = continuation }
                }
            }
        } onCancel: {
            loop.withLock {
                settledWaiter?.resume()
                settledWaiter = nil
            }
        }
    }
}

func settlingContextStateCallback(_ context: OpaquePointer?, _ u: UnsafeMutableRawPointer?) {
    guard let context, let u else { return }
    let core = Unmanaged<ConnectionCore>.fromOpaque(u).takeUnretainedValue()
    core.settlingContextStateChanged(context, pa_context_get_state(context))
}
