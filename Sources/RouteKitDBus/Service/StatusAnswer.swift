import ConcurrencySupport
import DBus
import RouteKit

/// `Status`, answered on the bus's thread (``DirectAnswer``) from what the daemon has
/// published: the engine's state, the microphone's mute as last followed, the context and
/// where the preferences come from, each read under its own lock. A client flooding the
/// daemon, or calls waiting for the engine, cannot delay it: it never waits for a task or the
/// sound server.
///
/// Until the engine is past its first reading (``ready()``) it leaves `Status` to the usual
/// way, which waits for it.
final class StatusAnswer: Sendable {
    private let driver: EngineDriver
    private let published: LockedValue<Published>

    /// What is answered besides what the driver's parts hold.
    struct Published: Sendable {
        /// Whether the engine is past its first reading.
        var isReady = false
        /// The microphone's mute as last read (nil: no microphone, or not readable).
        var microphoneMuted: Bool?
    }

    /// An answer for `driver`, with the microphone's mute as read when the session was claimed.
    init(driver: EngineDriver, microphoneMuted: Bool?) {
        self.driver = driver
        self.published = LockedValue(Published(microphoneMuted: microphoneMuted))
    }

    /// From now on `Status` is answered directly.
    func ready() {
        published.withLock { $0.isReady = true }
    }

    /// The microphone's mute changed (or was read again).
    func microphoneChanged(_ muted: Bool?) {
        published.withLock { $0.microphoneMuted = muted }
    }

    /// The answer to `Status`, or nil before ``ready()``.
    var direct: DirectAnswer {
        DirectAnswer { [self] _ in
            let now = published.withLock { $0 }
            guard now.isReady else { return nil }
            return [RouteKitProperties.statusRecord(driver.manager.state, microphoneMuted: now.microphoneMuted,
                                                    preferencesOrigin: driver.preferences.origin,
                                                    context: driver.context.snapshot)]
        }
    }
}
