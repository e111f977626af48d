/// Every event a source announced, kept in order, with waits on them that time out instead of
/// hanging: what the tests of the manager and of media pausing record events with.
public actor RecordedEvents<Event: Sendable> {
    /// The events so far, in order.
    public private(set) var events: [Event] = []
    private var waiters: [Int: (condition: @Sendable ([Event]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0
    private var following: Task<Void, Never>?

    /// Nothing recorded yet.
    public init() {}

    /// Records every event of `stream` from now on, until it ends.
    public func follow(_ stream: AsyncStream<Event>) {
        following = Task { [weak self] in
            for await event in stream { await self?.append(event) }
        }
    }

    /// Records one event.
    public func append(_ event: Event) {
        events.append(event)
        for (id, waiter) in waiters where waiter.condition(events) {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume()
        }
    }

    /// How many events so far: a mark to count from.
    public var count: Int { events.count }

    /// Waits until the events satisfy `condition`; fails after `timeout` with what came.
    public func wait(_ what: String, timeout: Duration = .seconds(10),
                     until condition: @escaping @Sendable ([Event]) -> Bool) async throws {
        do {
            try await withTimeout(what, timeout) {
                await self.register(condition)
                try Task.checkCancellation()
            }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); events so far: \(events)")
        }
    }

    /// Waits for the first event after `mark` that `matches`, and returns it.
    public func next(_ what: String, after mark: Int, timeout: Duration = .seconds(10),
                     where matches: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        try await wait(what, timeout: timeout) { $0.dropFirst(mark).contains(where: matches) }
        guard let found = events.dropFirst(mark).first(where: matches) else { throw TimedOut(what: what) }
        return found
    }

    /// Returns once `condition` holds, or when the waiting task is cancelled (a timeout).
    private func register(_ condition: @escaping @Sendable ([Event]) -> Bool) async {
        if condition(events) { return }
        let id = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiters[id] = (condition, continuation) }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }
}
