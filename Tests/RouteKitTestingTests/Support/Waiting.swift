import PulseAudio

/// A test waited longer than it should have: something hung.
struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `body`, failing with ``TimedOut`` if it has not finished within `timeout`. The
/// timeout is a guard against hangs, never a way to wait for something to happen.
@discardableResult
func withTimeout<Result: Sendable>(
    _ what: String, _ timeout: Duration = .seconds(15),
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut(what: what)
        }
        defer { group.cancelAll() }
        guard let result = try await group.next() else { throw TimedOut(what: what) }
        return result
    }
}

/// The subscription events of `events`, in order, up to and including the first that
/// matches `last`.
func collectEvents(
    _ what: String, from events: AsyncStream<PulseEvent>,
    through last: @escaping @Sendable (SubscriptionEvent) -> Bool
) async throws -> [SubscriptionEvent] {
    try await withTimeout(what) {
        var collected: [SubscriptionEvent] = []
        for await event in events {
            guard case .subscription(let subscription) = event else { continue }
            collected.append(subscription)
            if last(subscription) { return collected }
        }
        throw TimedOut(what: "\(what) (the event stream ended)")
    }
}

/// The first event of `events` that matches.
func firstEvent(
    _ what: String, in events: AsyncStream<PulseEvent>,
    where matches: @escaping @Sendable (PulseEvent) -> Bool
) async throws -> PulseEvent {
    try await withTimeout(what) {
        for await event in events where matches(event) {
            return event
        }
        throw TimedOut(what: "\(what) (the event stream ended)")
    }
}
