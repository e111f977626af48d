import CPulseAudio

/// One libpulse request in flight, from the moment it is sent until its continuation has
/// been resumed exactly once.
///
/// libpulse holds a retained pointer to it (the callbacks' `userdata`) until the operation
/// reaches `DONE` or `CANCELLED`, which `operationStateCallback` reports and which always
/// happens: on an answer, on `pa_operation_cancel`, and when the context dies.
///
/// `@unchecked Sendable`: every stored property is read and written only with the
/// ``ThreadedMainLoop`` lock held (libpulse callbacks run with it held).
class OperationRecord: @unchecked Sendable {
    /// What was asked, for error messages.
    let label: String
    /// The libpulse operation while it runs.
    var handle: OpaquePointer?
    /// The task that waits was cancelled.
    var cancelRequested = false
    /// Told when the operation is resolved, so that it stops tracking it.
    weak var tracker: ConnectionCore?
    /// The context the request was sent on (loop lock held): a renewal closes a replaced
    /// context only once none of its requests waits.
    var context: OpaquePointer?

    init(label: String) {
        self.label = label
    }

    /// Whether the continuation has been resumed.
    var isResolved: Bool { fatalError("abstract") }

    /// Resumes the waiting task with `error`, unless it was resumed already.
    func fail(_ error: any Error) { fatalError("abstract") }

    /// Fails with the context's current error code.
    func fail(context: OpaquePointer?) {
        let code = context.map { pa_context_errno($0) } ?? PulseError.Code.internalError.rawValue
        fail(PulseError(PulseError.Code(rawValue: code), operation: label))
    }

    /// libpulse has finished with the operation: answered, cancelled, or torn down with its context.
    func ended(cancelled: Bool) {
        handle = nil
        guard !isResolved else { return }
        if cancelRequested {
            fail(CancellationError())
        } else if cancelled {
            fail(PulseError(.connectionTerminated, operation: label,
                            reason: "the connection to the server ended before it answered"))
        } else {
            fail(PulseError(.internalError, operation: label, reason: "the server finished without an answer"))
        }
    }

    /// Cancels the operation on behalf of its cancelled task (loop lock held).
    func cancel() {
        cancelRequested = true
        if let handle {
            pa_operation_cancel(handle)  // calls operationStateCallback synchronously
        }
    }
}

/// An ``OperationRecord`` that produces a `Value`.
class PendingOperation<Value: Sendable>: OperationRecord, @unchecked Sendable {
    private var continuation: CheckedContinuation<Value, any Error>?
    private var resolved = false

    override var isResolved: Bool { resolved }

    /// Installs the continuation to resume (loop lock held).
    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = continuation
    }

    /// Resumes the waiting task once; later calls do nothing (loop lock held).
    func resolve(_ result: Result<Value, any Error>) {
        guard !resolved else { return }
        resolved = true
        let continuation = self.continuation
        self.continuation = nil
        tracker?.forget(self)
        // Resuming only enqueues the task; no caller code runs under the loop lock.
        continuation?.resume(with: result)
    }

    override func fail(_ error: any Error) {
        resolve(.failure(error))
    }
}

/// A request answered by a list of entries, one callback each and then an end-of-list
/// callback (`pa_context_get_*_info_list`, `_by_name`, `_by_index`).
final class ListOperation<Element: Sendable>: PendingOperation<[Element]>, @unchecked Sendable {
    /// Entries received so far (loop lock held).
    var items: [Element] = []
}
