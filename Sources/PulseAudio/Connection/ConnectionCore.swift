import CPulseAudio
import Logging

/// The machinery behind a ``PulseClient``: one threaded main loop, the current
/// `pa_context`, the requests in flight, and reconnection.
///
/// `@unchecked Sendable`: every mutable stored property is read and written only with the
/// loop lock held (``ThreadedMainLoop/withLock(_:)``, or inside a libpulse callback, which
/// runs with it held). Callbacks reach this object through an unretained pointer; the
/// context that holds that pointer is always torn down (its callbacks cleared) before the
/// object can go away, in ``shutdown()``.
final class ConnectionCore: @unchecked Sendable {
    let loop: ThreadedMainLoop
    let broadcaster = EventBroadcaster()
    let server: String?
    private let applicationName: String
    private let properties: [String: String]
    private let reconnectPolicy: ReconnectPolicy
    let subscription: SubscriptionMask
    private let logger: Logger
    /// This connection's name in the request trace (``RequestTrace``); empty when it is off.
    private let traceName: String

    // Loop-lock protected.
    private(set) var context: OpaquePointer?
    private var contextReached = false
    private(set) var state: ConnectionState = .idle
    private var pending: [ObjectIdentifier: OperationRecord] = [:]
    private var connectWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextWaiterID = 0
    /// The reconnection attempt under way or scheduled, counting from 1; 0 when not reconnecting.
    private var reconnectAttempt = 0
    /// The wait before the next reconnection attempt, while one is scheduled.
    private var reconnectTask: Task<Void, Never>?
    private(set) var isShutDown = false
    /// A renewal under way (``renew()``): the context that will take over, and who waits.
    var successor: OpaquePointer?
    var renewWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    /// Contexts a renewal replaced, open until the server has answered what was sent on them.
    var retiring: [OpaquePointer] = []
    /// Replaced contexts whose last request was answered while others sent on them still wait:
    /// pipewire-pulse answers some requests (a mute, a volume, a move) only once they are
    /// done, after requests sent later. Closed with their last answer.
    var drainedRetiring: Set<OpaquePointer> = []
    /// Contexts given up while connecting, left to become ready or fail before they close
    /// (``closeWhenSettled(_:)``), and a shutdown waiting for them.
    var settling: [OpaquePointer] = []
    var settledWaiter: CheckedContinuation<Void, Never>?
    /// A ``FallbackConnection``'s order, disarmed at every change of context
    /// (``ConnectionCore+StandingFallback``).
    var standingFallback: StandingFallback?

    init(server: String?, applicationName: String, properties: [String: String],
         reconnectPolicy: ReconnectPolicy, subscription: SubscriptionMask, logger: Logger,
         threadName: String = "routekit-pulse") {
        self.server = server
        self.applicationName = applicationName
        self.properties = properties
        self.reconnectPolicy = reconnectPolicy
        self.subscription = subscription
        self.logger = logger
        self.traceName = RequestTrace.connectionName(applicationName: applicationName)
        self.loop = ThreadedMainLoop(name: threadName)
    }

    /// The server as people should read it in messages.
    var serverLabel: String { server ?? "the default server" }

    var currentState: ConnectionState { loop.withLock { state } }

    /// The server's index for this client (`pa_context_get_index`), nil while not connected.
    var clientIndex: UInt32? {
        loop.withLock {
            guard state == .ready, let context else { return nil }
            return validIndex(pa_context_get_index(context))
        }
    }

    // MARK: Connecting

    /// Connects, or joins a connection attempt under way; returns when ready.
    func connect() async throws {
        let id = takeWaiterID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.withLock {
                    if let refusal = refusal("connect to \(serverLabel)") {
                        continuation.resume(throwing: refusal)
                    } else if state == .ready {
                        continuation.resume()
                    } else {
                        connectWaiters[id] = continuation
                        if context == nil, reconnectTask == nil { openContext() }
                    }
                }
            }
        } onCancel: {
            // Never take the loop lock in a cancellation handler: see `cancelOffLock(_:)`.
            cancelOffLock {
                guard let waiter = $0.connectWaiters.removeValue(forKey: id) else { return }
                waiter.resume(throwing: CancellationError())
                // Nobody waits for a first connection any more: give it up.
                if $0.connectWaiters.isEmpty, $0.reconnectTask == nil, $0.state == .connecting, let context = $0.context {
                    $0.closeContext(context)
                    $0.setState(.idle)
                }
            }
        }
    }

    /// A number for a waiter of ``connect()`` or ``renew()``, unique in this client.
    func takeWaiterID() -> Int {
        loop.withLock {
            defer { nextWaiterID += 1 }
            return nextWaiterID
        }
    }

    /// Why a waiter for `operation` cannot wait (loop lock held): its task is cancelled, or the
    /// client is shut down; nil when it can.
    func refusal(_ operation: String) -> (any Error)? {
        if Task.isCancelled { return CancellationError() }
        if isShutDown { return shutDownError(operation) }
        return nil
    }

    /// Runs `body` with the loop lock held, on another thread, soon.
    ///
    /// For cancellation handlers only. The Swift runtime holds the cancelled task's status
    /// lock while it runs the handler; a libpulse callback holds the loop lock while it
    /// resumes a continuation, which needs that same status lock. Taking the loop lock inside
    /// the handler would take the two locks in the opposite order and deadlock. Work that the
    /// handler would do under the loop lock therefore hops to a task of its own.
    private func cancelOffLock(_ body: @escaping @Sendable (ConnectionCore) -> Void) {
        Task { [self] in loop.withLock { body(self) } }
    }

    /// Creates a context and starts connecting it (loop lock held).
    private func openContext() {
        precondition(context == nil)
        switch makeContext() {
        case .failure(let error):
            attemptFailed(error, wasReady: false)
        case .success(let newContext):
            context = newContext
            contextReached = false
            if case .reconnecting = state {} else { setState(.connecting) }
            if pa_context_connect(newContext, server, pa_context_flags_t(PA_CONTEXT_NOAUTOSPAWN.rawValue), nil) < 0 {
                // The state callback has run with FAILED already, or will not run: settle here.
                if context == newContext {
                    contextEnded(newContext, error: PulseError(PulseError.Code(rawValue: pa_context_errno(newContext)),
                                                               operation: "connect to \(serverLabel)"))
                }
            }
        }
    }

    /// A new context with this client's name and properties, its state callback set, not yet
    /// connecting (loop lock held).
    func makeContext() -> Result<OpaquePointer, PulseError> {
        let propertyList = pa_proplist_new()
        defer { pa_proplist_free(propertyList) }
        for (key, value) in properties {
            pa_proplist_sets(propertyList, key, value)
        }
        // No shared memory, so no shared ring buffer (srbchannel): they only carry audio, which
        // this client never streams, and libpulse 16 was seen spinning forever, loop lock held,
        // tearing down a ring buffer whose server had been SIGKILLed.
        pa_proplist_sets(propertyList, "context.force.disable.shm", "yes")
        guard let newContext = pa_context_new_with_proplist(loop.api, applicationName, propertyList) else {
            return .failure(PulseError(.internalError, operation: "connect to \(serverLabel)", reason: "pa_context_new failed"))
        }
        pa_context_set_state_callback(newContext, contextStateCallback, Unmanaged.passUnretained(self).toOpaque())
        return .success(newContext)
    }

    /// libpulse's context state callback lands here (loop thread, lock held).
    func contextStateChanged(_ changed: OpaquePointer, _ newState: pa_context_state_t) {
        if changed == successor {
            successorStateChanged(changed, newState)
            return
        }
        guard changed == context else { return }
        // A new connection may be to a restarted server, which numbers its sinks anew.
        standingFallback = nil
        switch newState {
        case PA_CONTEXT_READY:
            contextReached = true
            pa_context_set_subscribe_callback(changed, subscriptionCallback, Unmanaged.passUnretained(self).toOpaque())
            if let operation = pa_context_subscribe(changed, subscription.libpulseMask, nil, nil) {
                pa_operation_unref(operation)
            }
            // Nothing is logged here, on libpulse's thread under its lock: a log handler that
            // waits (standard error, a pipe nobody reads) would stop every request. The
            // connection's state events say it to whoever follows them.
            reconnectAttempt = 0
            setState(.ready)
            let waiters = connectWaiters
            connectWaiters.removeAll()
            for waiter in waiters.values { waiter.resume() }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            let code = PulseError.Code(rawValue: pa_context_errno(changed))
            contextEnded(changed, error: PulseError(code, operation: "connect to \(serverLabel)"))
        default:
            break
        }
    }

    /// The context failed or ended: fail what waited on it, then decide whether to try again.
    private func contextEnded(_ ended: OpaquePointer, error: PulseError) {
        let wasReady = contextReached
        abandonRenewal(error)
        // Requests in flight learn why before libpulse cancels them.
        for operation in pending.values {
            operation.fail(PulseError(error.code, operation: operation.label,
                                      reason: "the connection to the server was lost (\(error.reason))"))
        }
        pending.removeAll()
        closeContext(ended)
        attemptFailed(error, wasReady: wasReady)
    }

    /// A context is gone, or could not be made (loop lock held): the state never stays
    /// `.ready` without a context. A connection that was ready, or a reconnection under way,
    /// goes on reconnecting (attempt 1 again after a ready one), and `connect()` callers wait
    /// for it; a first connection fails, and so do they.
    private func attemptFailed(_ error: PulseError, wasReady: Bool) {
        guard !isShutDown else {
            failWaiters(error)
            return
        }
        guard reconnectPolicy.isEnabled, wasReady || reconnectAttempt > 0 else {
            reconnectAttempt = 0
            setState(.failed(error))
            failWaiters(error)
            return
        }
        reconnectAttempt = wasReady ? 1 : reconnectAttempt + 1
        setState(.reconnecting(attempt: reconnectAttempt, lastError: error))
        scheduleReconnectAttempt()
    }

    /// Makes `new`, ready and subscribed, the context requests and events use (loop lock held,
    /// during a renewal). `old` is left to the caller.
    func takeOver(from old: OpaquePointer, to new: OpaquePointer) {
        precondition(context == old)
        context = new
        contextReached = true
    }

    /// Detaches and releases a context (loop lock held). libpulse cancels its operations.
    func closeContext(_ closing: OpaquePointer) {
        if context == closing { context = nil }
        if Self.isConnecting(closing) {
            // Closed only once the server has answered it (ConnectionCore+Settling.swift).
            closeWhenSettled(closing)
            return
        }
        pa_context_set_state_callback(closing, nil, nil)
        pa_context_set_subscribe_callback(closing, nil, nil)
        pa_context_disconnect(closing)
        pa_context_unref(closing)
    }

    private func failWaiters(_ error: any Error) {
        let waiters = connectWaiters
        connectWaiters.removeAll()
        for waiter in waiters.values { waiter.resume(throwing: error) }
    }

    /// Opens a new context after the policy's delay for the current attempt (loop lock held).
    /// The attempt's outcome arrives as context state changes, like any connection's.
    private func scheduleReconnectAttempt() {
        precondition(reconnectTask == nil && context == nil)
        let delay = reconnectPolicy.delay(beforeAttempt: reconnectAttempt)
        // Said off the loop's thread and lock, once a loss: a log handler may wait.
        let lost: (server: String, reason: String)? =
            if case .reconnecting(1, let error) = state { (serverLabel, error.reason) } else { nil }
        let logger = logger
        reconnectTask = Task { [weak self] in
            if let lost {
                logger.warning("lost the server", metadata: ["server": "\(lost.server)", "reason": "\(lost.reason)"])
            }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return  // shut down
            }
            self?.startReconnectAttempt()
        }
    }

    /// The delay is over: open the context of the scheduled attempt.
    private func startReconnectAttempt() {
        loop.withLock {
            reconnectTask = nil
            guard !isShutDown, reconnectAttempt > 0, context == nil else { return }
            openContext()
        }
    }

    func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        broadcaster.yield(.connectionStateChanged(newState))
    }

    func shutDownError(_ operation: String) -> PulseError {
        PulseError(.connectionTerminated, operation: operation, reason: "the client was shut down")
    }

    // MARK: Requests

    /// Sends one request with `start` and waits for its answer. `start` gets the ready
    /// context and the `userdata` to hand libpulse, and returns libpulse's operation.
    func perform<Value: Sendable>(
        _ operation: PendingOperation<Value>,
        _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) async throws -> Value {
        RequestTrace.record(connection: traceName, label: operation.label)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                loop.withLock {
                    operation.install(continuation)
                    // The cancellation handler acts later, off this lock: ask the task itself too.
                    if operation.cancelRequested || Task.isCancelled {
                        operation.fail(CancellationError())
                        return
                    }
                    guard !isShutDown else {
                        operation.fail(shutDownError(operation.label))
                        return
                    }
                    guard let context, state == .ready else {
                        operation.fail(PulseError(.badState, operation: operation.label,
                                                  reason: "not connected to \(serverLabel) (\(state))"))
                        return
                    }
                    let userdata = Unmanaged.passRetained(operation as OperationRecord).toOpaque()
                    guard let handle = start(context, userdata) else {
                        Unmanaged<OperationRecord>.fromOpaque(userdata).release()
                        operation.fail(context: context)
                        return
                    }
                    operation.handle = handle
                    operation.tracker = self
                    operation.context = context
                    pending[ObjectIdentifier(operation)] = operation
                    pa_operation_set_state_callback(handle, operationStateCallback, userdata)
                }
            }
        } onCancel: {
            // Never take the loop lock in a cancellation handler: see `cancelOffLock(_:)`.
            cancelOffLock { _ in operation.cancel() }
        }
    }

    /// How many requests are waiting for the server (for tests and diagnostics).
    var pendingRequestCount: Int { loop.withLock { pending.count } }

    /// Whether the state says ready while no context is open, which must never be (for tests
    /// and diagnostics; both read under one lock).
    var isReadyWithoutContext: Bool { loop.withLock { state == .ready && context == nil } }

    /// Stops tracking a resolved operation (loop lock held); the last request of a replaced
    /// context whose drain was answered lets it close.
    func forget(_ operation: OperationRecord) {
        pending.removeValue(forKey: ObjectIdentifier(operation))
        if let sentOn = operation.context, drainedRetiring.contains(sentOn), !hasPendingRequests(on: sentOn) {
            drainedRetiring.remove(sentOn)
            closeRetiredLater(sentOn)
        }
    }

    /// Whether a request sent on `sent` still waits for its answer (loop lock held).
    func hasPendingRequests(on sent: OpaquePointer) -> Bool {
        pending.values.contains { $0.context == sent }
    }

    // MARK: Shutting down

    func shutdown() {
        let (alreadyDown, task) = loop.withLock { () -> (Bool, Task<Void, Never>?) in
            guard !isShutDown else { return (true, nil) }
            isShutDown = true
            let error = shutDownError("request")
            for operation in pending.values {
                operation.fail(shutDownError(operation.label))
            }
            pending.removeAll()
            if let context { closeContext(context) }
            abandonRenewal(error)
            for retired in retiring { closeContext(retired) }
            retiring.removeAll()
            drainedRetiring.removeAll()
            failWaiters(error)
            setState(.shutDown)
            defer { reconnectTask = nil }
            return (false, reconnectTask)
        }
        guard !alreadyDown else { return }
        task?.cancel()
        if loop.withLock({ !settling.isEmpty }) {
            // A context still connecting stops the loop only once the server answered it.
            broadcaster.finish()
            Task.detached { [self] in await stopLoopWhenSettled() }
            return
        }
        guard loop.isLoopThread else {
            loop.stop()
            broadcaster.finish()
            return
        }
        // The client's last owner let go of it in a task running on the loop's own thread
        // (``LoopThreadExecutor``), which cannot stop and join itself: another thread does.
        let (loop, broadcaster) = (loop, broadcaster)
        Task.detached {
            loop.stop()
            broadcaster.finish()
        }
    }
}
