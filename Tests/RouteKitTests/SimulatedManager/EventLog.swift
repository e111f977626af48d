import Foundation
import Logging
import RouteKit
import TestSupport

/// Everything an ``AudioDeviceManager`` announced, kept in order, with waits on it that time
/// out instead of hanging.
typealias EventLog = RecordedEvents<AudioRouteEvent>

extension RecordedEvents where Event == AudioRouteEvent {
    /// Starts recording `manager`'s events (call before `start()` to see the first route).
    static func recording(_ manager: AudioDeviceManager) async -> EventLog {
        let log = EventLog()
        await log.follow(manager.events())
        return log
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
