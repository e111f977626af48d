import CPulseAudio
import Logging

/// A connection to a PulseAudio-protocol server: PulseAudio itself, or PipeWire through
/// pipewire-pulse.
///
/// Every call is `async`, safe from any task, and ends: it returns the server's answer or
/// throws a ``PulseError`` (the server refused, the connection was lost, the client is not
/// connected) or `CancellationError` (its task was cancelled). After a connection is lost,
/// the client reconnects by itself following its ``ReconnectPolicy``, and
/// ``events()`` says so.
///
/// ```swift
/// let client = PulseClient()
/// try await client.connect()
/// for sink in try await client.sinks() { print(sink.name) }
/// client.shutdown()
/// ```
///
/// Call ``shutdown()`` when done; dropping the last reference shuts down too.
public final class PulseClient: Sendable {
    /// How to reach the server and what to tell it about this client.
    public struct Configuration: Sendable {
        /// The server: nil for libpulse's default (`PULSE_SERVER`, then client.conf, then the
        /// user's runtime socket), a libpulse server string (`unix:/run/user/1000/pulse/native`,
        /// `tcp:host:4713`), or a socket path (`/tmp/sandbox/native`).
        public var server: String?
        /// The client name the server shows (`application.name`).
        public var applicationName: String
        /// More client properties (`application.id`, `media.role`, ...).
        public var properties: [String: String]
        /// What to do after the connection is lost.
        public var reconnectPolicy: ReconnectPolicy
        /// Whose changes ``PulseClient/events()`` delivers: the server sends no others.
        /// Connection changes are always delivered. Everything by default; a client that
        /// routes devices needs ``SubscriptionMask/devices``, plus ``SubscriptionMask/streams``
        /// if it moves streams.
        public var subscription: SubscriptionMask

        /// A configuration; every part has a default.
        public init(server: String? = nil, applicationName: String = "RouteKit",
                    properties: [String: String] = [:], reconnectPolicy: ReconnectPolicy = .standard,
                    subscription: SubscriptionMask = .all) {
            self.server = server
            self.applicationName = applicationName
            self.properties = properties
            self.reconnectPolicy = reconnectPolicy
            self.subscription = subscription
        }
    }

    let core: ConnectionCore

    /// A client for `configuration`; nothing is sent until ``connect()``.
    /// - Parameter logger: where the client logs connection changes; it never bootstraps logging.
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "routekit.pulseaudio")) {
        var properties = configuration.properties
        properties["application.name"] = properties["application.name"] ?? configuration.applicationName
        core = ConnectionCore(server: Self.serverString(configuration.server),
                              applicationName: configuration.applicationName, properties: properties,
                              reconnectPolicy: configuration.reconnectPolicy,
                              subscription: configuration.subscription, logger: logger)
    }

    deinit {
        core.shutdown()
    }

    /// A socket path becomes a `unix:` server string; anything else is passed on as it is.
    static func serverString(_ server: String?) -> String? {
        guard let server, !server.isEmpty else { return nil }
        return server.hasPrefix("/") ? "unix:" + server : server
    }

    /// The server this client connects to, as given (nil: libpulse's default).
    public var server: String? { core.server }

    /// Where the connection stands now.
    public var state: ConnectionState { core.currentState }

    /// The index the server gave this client, as its client events and `ClientInfo` carry
    /// it; nil while not connected. A renewed or re-established connection has a new one.
    public var clientIndex: UInt32? { core.clientIndex }

    /// Connects, and returns once the server is ready to answer.
    ///
    /// Throws ``PulseError`` when the server cannot be reached (code
    /// ``PulseError/Code/connectionRefused`` when nothing listens, ``PulseError/Code/invalidServer``
    /// for a bad address). Never starts a server (no autospawn). Once connected, a lost
    /// connection is re-established by itself; calling `connect()` while reconnecting waits
    /// for that.
    public func connect() async throws {
        try await core.connect()
    }

    /// Replaces the connection with a new one without ever being disconnected, and returns
    /// once the new one carries the client's requests and events.
    ///
    /// For pipewire-pulse, which keeps a copy of the graph per connection: a copy can miss a
    /// change of the default made while another client was binding PipeWire's "default"
    /// metadata, and then shows the old default until the next change (see Docs/Reliability.md).
    /// A new connection reads the server afresh. Requests in flight are answered on the old
    /// connection, events go on without a gap (a few may come twice), the connection's state
    /// stays `.ready`, and a server change event follows so that followers read the defaults
    /// again. On PulseAudio, whose clients all see one state, it only costs a connection.
    ///
    /// Throws ``PulseError/Code/badState`` when the client is not ready, or the new
    /// connection's error when it could not connect (the old one then stays).
    public func renewConnection() async throws {
        try await core.renew()
    }

    /// The server's changes and this client's connection changes, from now on, until
    /// ``shutdown()``. Each call returns a new, independent stream that buffers without bound;
    /// stop iterating to leave.
    public func events() -> AsyncStream<PulseEvent> {
        core.broadcaster.makeStream()
    }

    /// Calls `handler` with every event from now on, then with nil when the client shuts down:
    /// what ``events()`` delivers, without a stream between libpulse and you. It runs on
    /// libpulse's loop thread, so it must return at once and never call the client; hand the
    /// event on (to a queue of your own) instead. Keep the observation: releasing or cancelling
    /// it stops the calls.
    public func observeEvents(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation {
        core.broadcaster.observe(handler)
    }

    /// Runs Swift tasks on libpulse's event thread, between its callbacks. A task that prefers
    /// it (`withTaskExecutorPreference(client.loopExecutor) { … }`) gets the client's events and
    /// answers and sends its requests with no thread hop, which is how RouteKit's engine
    /// switches within one round trip of an event. Such a task must never block. After
    /// ``shutdown()`` its jobs run on the global executor.
    public var loopExecutor: any TaskExecutor { core.loop.executor }

    /// Closes the connection and stops the client's thread. Calls in flight throw
    /// ``PulseError/Code/connectionTerminated``, event streams finish, and later calls throw.
    /// Idempotent. From a task running on ``loopExecutor`` it returns before the client's
    /// thread has ended (that thread cannot join itself); elsewhere, after.
    public func shutdown() {
        core.shutdown()
    }

    /// Connects with `configuration`, runs `body`, and shuts the client down, whether `body`
    /// returns or throws.
    public static func withConnection<Result>(
        _ configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "routekit.pulseaudio"),
        _ body: (PulseClient) async throws -> Result
    ) async throws -> Result {
        let client = PulseClient(configuration: configuration, logger: logger)
        defer { client.shutdown() }
        try await client.connect()
        return try await body(client)
    }
}
