import Foundation
import Logging
import RouteKit
import TestSupport

/// Everything an ``AudioDeviceManager`` announced, kept in order, with waits on it that time
/// out instead of hanging.
actor EventLog {
    private(set) var events: [AudioRouteEvent] = []
    private var waiters: [Int: (condition: @Sendable ([AudioRouteEvent]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0
    private var task: Task<Void, Never>?

    /// Starts recording `manager`'s events (call before `start()` to see the first route).
    static func recording(_ manager: AudioDeviceManager) async -> EventLog {
        let log = EventLog()
        let stream = manager.events()
        await log.follow(stream)
        return log
    }

    private func follow(_ stream: AsyncStream<AudioRouteEvent>) {
        task = Task { [weak self] in
            for await event in stream { await self?.append(event) }
        }
    }

    private func append(_ event: AudioRouteEvent) {
        events.append(event)
        for (id, waiter) in waiters where waiter.condition(events) {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume()
        }
    }

    /// Returns once `condition` holds, or when the waiting task is cancelled (a timeout).
    private func register(_ condition: @escaping @Sendable ([AudioRouteEvent]) -> Bool) async {
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

    /// Waits until the log satisfies `condition`.
    func wait(_ what: String, timeout: Duration = .seconds(10),
              until condition: @escaping @Sendable ([AudioRouteEvent]) -> Bool) async throws {
        try await withTimeout(what, timeout) {
            await self.register(condition)
            try Task.checkCancellation()
        }
    }

    /// Waits for a route change to `device` (nil: to no device), counted from `index` on.
    func waitForRoute(to device: AudioDevice.ID?, after index: Int = 0, timeout: Duration = .seconds(10)) async throws
        -> (from: AudioDevice?, to: AudioDevice?, reason: RouteChangeReason) {
        try await wait("a route change to \(device?.rawValue ?? "none")", timeout: timeout) { events in
            events.dropFirst(index).contains { $0.routeTarget == .some(device) }
        }
        let change = events.dropFirst(index).last { $0.routeTarget == .some(device) }
        guard case .routeChanged(let from, let to, let reason) = change else { fatalError("unreachable") }
        return (from, to, reason)
    }

    /// The route changes so far.
    var routeChanges: [(from: AudioDevice?, to: AudioDevice?, reason: RouteChangeReason)] {
        events.compactMap {
            guard case .routeChanged(let from, let to, let reason) = $0 else { return nil }
            return (from, to, reason)
        }
    }

    /// The failed switches so far.
    var failures: [(device: AudioDevice, reason: SwitchFailure)] {
        events.compactMap {
            guard case .switchFailed(let device, let reason) = $0 else { return nil }
            return (device, reason)
        }
    }

    /// How many events so far.
    var count: Int { events.count }
}

extension AudioRouteEvent {
    /// For a route change, the device it goes to (`.some(nil)` for none); nil for other events.
    var routeTarget: AudioDevice.ID?? {
        guard case .routeChanged(_, let to, _) = self else { return nil }
        return .some(to?.id)
    }
}

extension Logger {
    /// A logger for the manager under test: silent, or everything on stderr when
    /// `ROUTEKIT_TEST_LOG` is set.
    static func forTests(_ test: String = #function) -> Logger {
        var logger = Logger(label: "routekit.test.\(test)", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = ProcessInfo.processInfo.environment["ROUTEKIT_TEST_LOG"] == nil ? .critical : .trace
        return logger
    }
}
