import CPulseAudio

/// Renewal: a second connection takes over from a ready one without the client ever being
/// disconnected (make before break). pipewire-pulse keeps a copy of the graph per connection,
/// and a copy can miss a change of the default for good (Docs/Reliability.md, "The PipeWire
/// default that never reaches long-lived connections"); a new connection reads the server's
/// state afresh.
///
/// The new context connects and subscribes; once the server has acknowledged the
/// subscription it carries every request and event from then on. The old one keeps its
/// subscription until the server has answered one last request on it, which comes after
/// every event it had sent, and until every request sent on it is answered (pipewire-pulse
/// answers a mute, a volume or a move only once it is done, after requests sent later):
/// nothing in flight fails and no event is lost (some may arrive twice). Then it is closed.
/// Last, a server change event tells followers to read the defaults again, now from the new copy.
extension ConnectionCore {
    /// Replaces the ready connection with a new one; returns once the new one carries the
    /// client's requests and events. Throws when the client is not ready, or the new connection
    /// failed (the old one then stays).
    func renew() async throws {
        let id = takeWaiterID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.withLock {
                    if let refusal = refusal(renewalLabel) {
                        continuation.resume(throwing: refusal)
                    } else if state != .ready || context == nil {
                        continuation.resume(throwing: PulseError(.badState, operation: renewalLabel,
                                                                 reason: "not connected (\(state))"))
                    } else {
                        renewWaiters[id] = continuation
                        if successor == nil { openSuccessor() }
                    }
                }
            }
        } onCancel: {
            // Never take the loop lock in a cancellation handler (see `connect()`): hop.
            Task { [self] in
                loop.withLock {
                    guard let waiter = renewWaiters.removeValue(forKey: id) else { return }
                    waiter.resume(throwing: CancellationError())
                    if renewWaiters.isEmpty { closeSuccessor() }
                }
            }
        }
    }

    /// What a renewal's errors say was asked.
    private var renewalLabel: String { "renew the connection to \(serverLabel)" }

    /// The renewal's error from `context`'s error code (loop lock held).
    private func renewalError(of context: OpaquePointer) -> PulseError {
        PulseError(PulseError.Code(rawValue: pa_context_errno(context)), operation: renewalLabel)
    }

    /// Closes the context connecting to take over, if any (loop lock held).
    private func closeSuccessor() {
        guard let successor else { return }
        self.successor = nil
        closeContext(successor)
    }

    /// Starts connecting the context that will take over (loop lock held).
    private func openSuccessor() {
        switch makeContext() {
        case .failure(let error):
            abandonRenewal(error)
        case .success(let newContext):
            successor = newContext
            if pa_context_connect(newContext, server, pa_context_flags_t(PA_CONTEXT_NOAUTOSPAWN.rawValue), nil) < 0,
               successor == newContext {
                abandonRenewal(renewalError(of: newContext))
            }
        }
    }

    /// The successor's state changed (loop thread, lock held): once ready it subscribes, and
    /// takes over when the server acknowledges that (``successorSubscribed(_:success:)``).
    func successorStateChanged(_ changed: OpaquePointer, _ newState: pa_context_state_t) {
        switch newState {
        case PA_CONTEXT_READY:
            let userdata = Unmanaged.passUnretained(self).toOpaque()
            guard let operation = pa_context_subscribe(changed, subscription.libpulseMask, successorSubscribedCallback, userdata) else {
                abandonRenewal(renewalError(of: changed))
                return
            }
            pa_operation_unref(operation)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            abandonRenewal(renewalError(of: changed))
        default:
            break
        }
    }

    /// The server acknowledged the successor's subscription (loop thread, lock held): it takes
    /// over, and the old context drains.
    func successorSubscribed(_ subscribed: OpaquePointer, success: Bool) {
        guard subscribed == successor else { return }
        guard success, let old = context else {
            abandonRenewal(renewalError(of: subscribed))
            return
        }
        successor = nil
        pa_context_set_subscribe_callback(subscribed, subscriptionCallback, Unmanaged.passUnretained(self).toOpaque())
        takeOver(from: old, to: subscribed)
        // A last request on the old context: its answer comes after everything it owed.
        pa_context_set_state_callback(old, nil, nil)
        retiring.append(old)
        if let drain = pa_context_get_server_info(old, retiredDrainedCallback, Unmanaged.passUnretained(self).toOpaque()) {
            pa_operation_unref(drain)
        } else if hasPendingRequests(on: old) {
            drainedRetiring.insert(old)
        } else {
            retire(old)
        }
        broadcaster.yield(.subscription(SubscriptionEvent(facility: .server, kind: .change, index: UInt32.max)))
        let waiters = renewWaiters
        renewWaiters.removeAll()
        for waiter in waiters.values { waiter.resume() }
    }

    /// The old context has answered its last request (loop thread, lock held): it is closed
    /// once no other request sent on it waits, from a task of its own, not inside its own callback.
    func retiredDrained(_ drained: OpaquePointer) {
        if hasPendingRequests(on: drained) {
            drainedRetiring.insert(drained)
        } else {
            closeRetiredLater(drained)
        }
    }

    /// Closes a retired context from a task of its own (loop lock held by the caller, which may
    /// be one of the context's callbacks).
    func closeRetiredLater(_ retired: OpaquePointer) {
        let address = Int(bitPattern: UnsafeRawPointer(retired))  // a pointer is not Sendable
        Task { [self] in
            loop.withLock {
                guard let retired = OpaquePointer(bitPattern: address) else { return }
                retire(retired)
            }
        }
    }

    /// Closes a retired context, once (loop lock held).
    private func retire(_ retired: OpaquePointer) {
        guard let position = retiring.firstIndex(of: retired) else { return }
        retiring.remove(at: position)
        drainedRetiring.remove(retired)
        closeContext(retired)
    }

    /// Gives up a renewal under way, if any (loop lock held): the successor is closed, and who
    /// waited for it gets `error`. The old connection stays.
    func abandonRenewal(_ error: PulseError) {
        closeSuccessor()
        let waiters = renewWaiters
        renewWaiters.removeAll()
        for waiter in waiters.values { waiter.resume(throwing: error) }
    }
}
