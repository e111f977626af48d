import PulseAudio

/// A test waited longer than it should have: something hung.
public struct TimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public init(what: String) { self.what = what }
    /// What was waited for.
    public var what: String
    /// Says what was waited for.
    public var description: String { "timed out waiting for \(what)" }
}

@discardableResult
/// Runs `body`, failing with ``TimedOut`` if it has not finished within `timeout`. The
/// timeout is a guard against hangs, never a way to wait for something to happen.
public func withTimeout<Result: Sendable>(
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

/// Waits, event by event, until `condition` holds as seen through `observer`: checks once,
/// then again after every event the observer receives.
public func waitUntil(
    _ what: String, observer: PulseClient, timeout: Duration = .seconds(15),
    _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
    let events = observer.events()
    try await withTimeout(what, timeout) {
        if try await condition() { return }
        for await _ in events {
            if try await condition() { return }
        }
        throw TimedOut(what: "\(what) (the event stream ended)")
    }
}

/// Runs `body` while `client`'s connection is renewed every `interval`, and stops renewing
/// when it returns. A pipewire-pulse connection can miss a change of the default for good
/// (Docs/Reliability.md, "The PipeWire default that never reaches long-lived connections"):
/// each renewal reads the server afresh and is followed by a server change event, so a wait
/// on `client`'s events checks again. A renewal that fails is left for the next.
public func whileRenewing<Result: Sendable>(
    _ client: PulseClient, every interval: Duration = .seconds(1), _ body: () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            while true {
                try await Task.sleep(for: interval)
                try? await client.renewConnection()
            }
        }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// The first event of `events` that matches.
public func firstEvent(
    _ what: String, in events: AsyncStream<PulseEvent>, timeout: Duration = .seconds(15),
    where matches: @escaping @Sendable (PulseEvent) -> Bool
) async throws -> PulseEvent {
    try await withTimeout(what, timeout) {
        for await event in events where matches(event) {
            return event
        }
        throw TimedOut(what: "\(what) (the event stream ended)")
    }
}

/// The subscription events of `events`, in order, up to and including the first that
/// matches `last`.
public func collectEvents(
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

/// The sink named `name` once `client` lists it. pipewire-pulse answers `load-module` before
/// every connection lists the new sink (its node is announced to each client's copy of the
/// graph afterwards), so a lookup right after loading can find nothing.
public func listedSink(_ name: String, by client: PulseClient, timeout: Duration = .seconds(15)) async throws -> SinkInfo {
    try await waitUntil("\(name) listed", observer: client, timeout: timeout) { try await client.sink(named: name) != nil }
    guard let sink = try await client.sink(named: name) else { throw TimedOut(what: "\(name) listed (it went again)") }
    return sink
}
