
/// One queue of inputs for a loop (the engine's, media pausing's): events and commands, in the order
/// they arrived, handed to the loop a batch at a time.
///
/// Many producers (libpulse's thread, any caller's task), one consumer (the loop). A producer
/// appends and, when the loop waits, resumes it; the loop takes everything queued at each wake,
/// so a storm costs one wake per batch, not one per event. Nothing is lost and nothing is
/// reordered. The queue is bounded only by what arrives between two wakes. Package access:
/// sibling modules (MediaControl) share it; applications never see it.
package final class InputQueue<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var waiter: CheckedContinuation<[Element]?, Never>?
        var isFinished = false
    }

    private let state = LockedValue(State())

    /// An empty queue.
    package init() {}

    /// Appends `element`; dropped once the queue is finished.
    package func push(_ element: Element) {
        let waiter: CheckedContinuation<[Element]?, Never>? = state.withLock { state in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: [element])
    }

    /// Ends the queue: the loop gets what is still queued, then nil.
    package func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.buffer.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }

    /// Everything queued, waiting for at least one element; nil once the queue is finished and
    /// empty. An empty batch when the calling task is cancelled, or when `deadline` passes
    /// first. Only one task may wait at a time.
    package func nextBatch(until deadline: ContinuousClock.Instant? = nil) async -> [Element]? {
        if let ready = takeQueued() { return ready }
        guard let deadline else { return await waitForBatch() }
        switch await withDeadline(deadline, { await self.waitForBatch() }) {
        case .finished(let batch): return batch
        // A waiter handed a batch as the clock ran out returns it: nothing taken is lost.
        case .deadlinePassed(let late): return late ?? []
        }
    }

    /// The buffer, if anything is in it or the queue is over; nil when the caller must wait.
    private func takeQueued() -> [Element]?? {
        state.withLock { state -> [Element]?? in
            if !state.buffer.isEmpty {
                defer { state.buffer.removeAll(keepingCapacity: true) }
                return .some(state.buffer)
            }
            return state.isFinished ? .some(nil) : nil
        }
    }

    private func waitForBatch() async -> [Element]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Element]?, Never>) in
                let immediate: [Element]?? = state.withLock { state in
                    if !state.buffer.isEmpty {
                        defer { state.buffer.removeAll(keepingCapacity: true) }
                        return .some(state.buffer)
                    }
                    if state.isFinished { return .some(nil) }
                    if Task.isCancelled { return .some([]) }
                    precondition(state.waiter == nil, "InputQueue has one consumer")
                    state.waiter = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: [])
        }
    }
}
