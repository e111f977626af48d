import ConcurrencySupport
import PulseAudio
import RouteKit

/// A sound server in memory that behaves like PulseAudio 16, for tests: an ``AudioServer``
/// with cards, profiles, ports and their availability, Bluetooth profile switches, jacks
/// plugged and unplugged, devices appearing and failing, streams, and a connection that can
/// drop, all driven by the test, and announced with the same subscription events, in the same
/// order, as a real PulseAudio 16 sends for the same changes.
///
/// ```swift
/// let server = SimulatedServer()
/// try server.addCard(.laptopAnalog())
/// let events = server.events()
/// try server.addCard(.bluetoothHeadset(address: "00:1B:66:AA:BB:CC", name: "WH-1000XM4"))
/// // events: card new, sink change, source change, source new, sink new, server change, module new
/// try server.setPortAvailability(card: "alsa_card.pci-0000_00_1f.3", port: "analog-output-headphones", .available)
/// ```
///
/// Each scripting call and each command is one iteration of the server's main loop: its
/// events are coalesced as PulseAudio coalesces them (`pa_subscription_post`) and delivered to
/// every ``events()`` stream before the call returns. A request from a cancelled task throws
/// `CancellationError` and is not made, as with `PulseClient`. How each sequence was established (on a
/// real PulseAudio 16.1, or from its source for what virtual devices cannot show) is written
/// on the engine's parts; the `RouteKitTestingTests` compare both servers side by side.
///
/// Modelled beyond the PulseAudio core: `module-switch-on-port-available` (optional, see
/// ``Options``), and clients connected for one stream leaving when it is killed, as `pacat`
/// does. Not modelled: sample rates and latencies, suspending idle devices
/// (`module-suspend-on-idle`), `module-stream-restore`, `module-card-restore`,
/// `module-switch-on-connect`, `module-bluetooth-policy`, and filter devices.
public final class SimulatedServer: VolumeControllingServer, Sendable {
    /// How the simulated server is set up.
    public struct Options: Hashable, Sendable {
        /// What ``SimulatedServer/serverInfo()`` reports as the server's name.
        public var serverName: String
        /// What ``SimulatedServer/serverInfo()`` reports as the server's version.
        public var serverVersion: String
        /// The user the server runs as.
        public var userName: String
        /// The host the server runs on.
        public var hostName: String
        /// Whether ports switch by themselves when a jack is plugged or unplugged, as
        /// `module-switch-on-port-available` (in PulseAudio's default.pa) makes them.
        public var switchesPortsOnAvailabilityChange: Bool

        /// Options; the defaults are PulseAudio 16.1 with its default modules.
        public init(serverName: String = "pulseaudio", serverVersion: String = "16.1", userName: String = "user",
                    hostName: String = "simulated", switchesPortsOnAvailabilityChange: Bool = true) {
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.userName = userName
            self.hostName = hostName
            self.switchesPortsOnAvailabilityChange = switchesPortsOnAvailabilityChange
        }
    }

    /// What the lock guards.
    struct State: Sendable {
        var simulation: SimulationState
        var connection = ConnectionState.ready
        var failures: [ScheduledFailure] = []
        var receivedCommands: [SimulatedCommand] = []
        /// The defaults the connection's copy of the server kept when it missed a change
        /// (``SimulatedServer/simulateMissedDefaultSink(_:)``); nil when it missed none.
        var missedDefaults: MissedDefaults?
        /// Readings made on a connection of their own (``SimulatedServer/serverInfoOnNewConnection()``).
        var newConnectionReadings = 0
        /// Readings on a new connection wait here while held (``holdNewConnectionReadings()``).
        var heldReadings: [Int: CheckedContinuation<Void, Never>]?
        var nextHeldReading = 0
    }

    /// The default sink and source names a connection kept when it missed a change.
    struct MissedDefaults: Sendable {
        var sinkName: String?
        var sourceName: String?
    }

    /// The server's options.
    public let options: Options
    let state: LockedValue<State>
    let hub = EventHub()

    /// The cookie of a fresh server; each restart adds one.
    static let initialCookie: UInt32 = 0x5349_4D55

    /// An empty server (no devices yet), connected, reporting `serverName` and `serverVersion`.
    public convenience init(serverName: String = "pulseaudio", serverVersion: String = "16.1") {
        self.init(options: Options(serverName: serverName, serverVersion: serverVersion))
    }

    /// An empty server (no devices yet), connected, set up with `options`.
    public init(options: Options) {
        self.options = options
        var simulation = SimulationState(options: options, cookie: Self.initialCookie)
        // Module 0 serves the clients, as module-native-protocol-unix does on a real server.
        _ = simulation.addModule(name: "module-native-protocol-unix", argument: "")
        _ = simulation.takeEvents()
        state = LockedValue(State(simulation: simulation))
    }

    /// A server released without ``shutdown()`` shuts down, so that no event stream waits forever.
    deinit {
        shutdown()
    }

    /// Changes, from now on: subscription events and connection-state changes. Each call
    /// returns a new, independent stream that buffers without bound; stop iterating to leave.
    /// After ``shutdown()`` the stream ends at once.
    public func events() -> AsyncStream<PulseEvent> {
        hub.makeStream()
    }

    /// Calls `handler` with every event from now on, then with nil at ``shutdown()``, as
    /// `PulseClient.observeEvents(_:)` does. Keep the observation: releasing it stops the calls.
    public func observeEvents(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation {
        hub.observe(handler)
    }

    /// Every command received so far, failed ones included, in order.
    public var receivedCommands: [SimulatedCommand] {
        state.withLock { $0.receivedCommands }
    }

    // MARK: Running server work

    /// Runs `body` as the server's own work and delivers its events, in order, to every event
    /// stream while a client is connected (events of changes made while disconnected are lost,
    /// as for a real client).
    func perform<Result: Sendable, Failure: Error>(
        _ body: (inout SimulationState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { (server: inout State) throws(Failure) -> Result in
            defer {
                let events = server.simulation.takeEvents()
                // The next change of a default reaches a connection that missed one.
                if events.contains(where: { $0.facility == .server }) { server.missedDefaults = nil }
                if server.connection == .ready {
                    hub.yield(events.map(PulseEvent.subscription))
                }
            }
            return try body(&server.simulation)
        }
    }

    /// Reads a snapshot for a request labelled `operation`, failing as `PulseClient` fails when
    /// its task is cancelled (`CancellationError`) or it is not connected.
    func read<Value: Sendable>(_ operation: String, _ body: (SimulationState) -> Value) throws -> Value {
        try Self.checkNotCancelled()
        return try state.withLock { (server: inout State) throws(PulseError) -> Value in
            try Self.checkConnected(server.connection, operation)
            return body(server.simulation)
        }
    }

    /// Throws `CancellationError` when the calling task is cancelled, as `PulseClient` does
    /// before it sends a request: the request is not made.
    static func checkNotCancelled() throws(CancellationError) {
        if Task.isCancelled { throw CancellationError() }
    }

    /// Throws what `PulseClient` throws for a request while not connected.
    static func checkConnected(_ connection: ConnectionState, _ operation: String) throws(PulseError) {
        switch connection {
        case .ready:
            return
        case .shutDown:
            throw PulseError(.connectionTerminated, operation: operation, reason: "the client was shut down")
        default:
            throw PulseError(.badState, operation: operation, reason: "not connected to the simulated server (\(connection))")
        }
    }
}
