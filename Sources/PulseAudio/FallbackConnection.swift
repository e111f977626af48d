import Logging

/// A connection of its own that follows sinks alone and holds one ``StandingFallback``.
///
/// libpulse reads one frame header or one payload per turn of its loop, so a connection
/// that also follows the server, sources and cards reads a sink's removal only after the
/// server's own change of default and the monitor's removal, with its work on each in
/// between. This connection reads the removal first, as a client that follows sinks alone
/// does, and sends the order's `set-default-sink` from the callback that reads it; the order
/// is then spent. It is disarmed whenever its connection changes (a restarted server numbers
/// its sinks anew): whoever arms it arms it again after each of its own decisions.
///
/// ```swift
/// let fallback = FallbackConnection(server: "/run/user/1000/pulse/native")
/// try await fallback.connect()
/// fallback.arm(StandingFallback(sinkIndex: headsetIndex, fallbackSink: "speaker"))
/// ```
///
/// Call ``shutdown()`` when done, from outside any client's event thread (it joins its own).
public final class FallbackConnection: Sendable {
    let core: ConnectionCore
    /// The name of the connection's thread (`top -H`, /proc/PID/task/TID/comm), apart from
    /// the other connections' "routekit-pulse".
    static let threadName = "routekit-fallbk"

    /// A connection to `server` (a socket path or libpulse server string; nil for libpulse's
    /// default), shown as `applicationName`; nothing is sent until ``connect()``.
    public init(server: String?, applicationName: String = "RouteKit fallback",
                logger: Logger = Logger(label: "routekit.pulseaudio")) {
        core = ConnectionCore(server: PulseClient.serverString(server), applicationName: applicationName,
                              properties: ["application.name": applicationName], reconnectPolicy: .standard,
                              subscription: .sinks, logger: logger, threadName: Self.threadName)
    }

    deinit {
        core.shutdown()
    }

    /// Connects; returns once the server is ready (``PulseClient/connect()``'s errors).
    public func connect() async throws {
        try await core.connect()
    }

    /// Arms `order` in place of the one armed (nil disarms). Ignored while the connection is
    /// not ready: an order armed then could outlive the numbering it was made with.
    public func arm(_ order: StandingFallback?) {
        core.loop.withLock { core.armStandingFallback(order) }
    }

    /// Closes the connection and stops its thread; an order armed is dropped. Idempotent.
    public func shutdown() {
        core.shutdown()
    }
}
