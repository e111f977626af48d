import MediaControl
import TestSupport

/// Every event a ``MediaGuard`` announced, in order, and waits on them.
actor MediaEventLog {
    private(set) var events: [MediaEvent] = []
    private var waiters: [Int: (condition: @Sendable ([MediaEvent]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0

    /// Runs `mediaGuard` while `body` runs, recording what it announces, and once it is
    /// ready (it has read the server and the device model); stops it after, which unmutes
    /// what it holds.
    static func running(_ mediaGuard: MediaGuard, _ body: @escaping @Sendable (MediaEventLog) async throws -> Void) async throws {
        let log = MediaEventLog()
        let events = mediaGuard.events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await event in events { await log.append(event) } }
            group.addTask { await mediaGuard.run() }
            try await log.wait("the guard ready") { $0.contains(.ready) }
            try await body(log)
            group.cancelAll()
        }
    }

    /// Appends one event; the test's task group feeds this from the guard's stream.
    func append(_ event: MediaEvent) {
        events.append(event)
        let ready = waiters.filter { $0.value.condition(events) }.map(\.key)
        for id in ready { waiters.removeValue(forKey: id)?.continuation.resume() }
    }

    /// Waits until the events satisfy `condition`; fails after `timeout` with the events so far.
    func wait(_ what: String, timeout: Duration = .seconds(10),
              until condition: @escaping @Sendable ([MediaEvent]) -> Bool) async throws {
        do {
            try await withTimeout(what, timeout) { await self.register(condition) }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); media events: \(events)")
        }
    }

    /// Waits for the first event after `mark` that `matches`, and returns it.
    func next(_ what: String, after mark: Int, timeout: Duration = .seconds(10),
              where matches: @escaping @Sendable (MediaEvent) -> Bool) async throws -> MediaEvent {
        try await wait(what, timeout: timeout) { $0.dropFirst(mark).contains(where: matches) }
        return events.dropFirst(mark).first(where: matches)!
    }

    /// How many events so far.
    var count: Int { events.count }

    private func register(_ condition: @escaping @Sendable ([MediaEvent]) -> Bool) async {
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
