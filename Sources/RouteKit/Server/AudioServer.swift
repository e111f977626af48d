import Logging
import PulseAudio

/// What RouteKit needs from a sound server: snapshots, one event stream, and the commands
/// that route audio. `PulseClient` is the real one; `RouteKitTesting.SimulatedServer`
/// plays one in tests, with the cards, ports and profiles that virtual devices lack.
///
/// Every method has `PulseClient`'s meaning: lookups return nil for a missing entity,
/// commands throw `PulseError` with the server's reason.
public protocol AudioServer: Sendable {
    /// The server's name, version and defaults.
    func serverInfo() async throws -> ServerInfo
    /// Every sink.
    func sinks() async throws -> [SinkInfo]
    /// Every source, monitors included.
    func sources() async throws -> [SourceInfo]
    /// Every card.
    func cards() async throws -> [CardInfo]
    /// The sink at `index`, nil when there is none.
    func sink(at index: UInt32) async throws -> SinkInfo?
    /// The source at `index`, nil when there is none.
    func source(at index: UInt32) async throws -> SourceInfo?
    /// The card at `index`, nil when there is none.
    func card(at index: UInt32) async throws -> CardInfo?
    /// The sink called `name`, nil when there is none: one request, however many sinks there
    /// are (a list costs PulseAudio a latency query to every sink's thread).
    func sink(named name: String) async throws -> SinkInfo?
    /// The source called `name`, nil when there is none.
    func source(named name: String) async throws -> SourceInfo?
    /// Every playback stream.
    func sinkInputs() async throws -> [SinkInputInfo]
    /// Every recording stream.
    func sourceOutputs() async throws -> [SourceOutputInfo]
    /// The playback stream at `index`, nil when there is none.
    func sinkInput(at index: UInt32) async throws -> SinkInputInfo?
    /// The recording stream at `index`, nil when there is none.
    func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo?
    /// Changes, from now on: subscription events and connection-state changes.
    func events() -> AsyncStream<PulseEvent>
    /// The same changes handed to `handler` as they arrive, then nil when the server's
    /// connection is shut down; the engine's only way in. `handler` must return at once.
    /// Releasing the observation stops the calls. A default implementation forwards
    /// ``events()`` from a task of its own; `PulseClient` and the simulated server call the
    /// handler directly, with no hop between.
    func observeEvents(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation

    /// Where the engine's loop should run: `PulseClient`'s event thread, so that an event, the
    /// lookups it needs and the switch it causes take no thread hop; nil (the default) for the
    /// global executor.
    var preferredTaskExecutor: (any TaskExecutor)? { get }

    /// Makes `sink` the default sink.
    func setDefaultSink(_ sink: String) async throws
    /// Makes `source` the default source.
    func setDefaultSource(_ source: String) async throws
    /// Asks for the default sink without naming one: on PipeWire the configured default is
    /// forgotten (`default.configured.audio.sink` cleared) and WirePlumber chooses again; on
    /// PulseAudio the current default becomes the configured one.
    func resetDefaultSink() async throws
    /// Asks for the default source without naming one, as ``resetDefaultSink()`` does.
    func resetDefaultSource() async throws
    /// Moves a playback stream.
    func moveSinkInput(_ sinkInput: UInt32, toSink sink: String) async throws
    /// Moves a recording stream.
    func moveSourceOutput(_ sourceOutput: UInt32, toSource source: String) async throws
    /// Switches a sink's port.
    func setSinkPort(_ sink: String, port: String) async throws
    /// Switches a source's port.
    func setSourcePort(_ source: String, port: String) async throws
    /// Switches a card's profile.
    func setCardProfile(_ card: String, profile: String) async throws
    /// Mutes or unmutes the source `source` (the microphone's mute).
    func setSourceMute(_ source: String, muted: Bool) async throws
    /// Mutes or unmutes the recording stream `sourceOutput` (the microphone's mute in
    /// application scope: the call's own capture streams).
    func setSourceOutputMute(_ sourceOutput: UInt32, muted: Bool) async throws

    /// Replaces the connection with a new one that reads the server afresh, without a gap in
    /// requests or events (`PulseClient.renewConnection()`). The engine asks for it when a
    /// switch it made is not confirmed in time: a pipewire-pulse connection can miss a change
    /// of the default for good. The default implementation does nothing, for servers whose
    /// connections cannot miss one.
    func renewConnection() async throws

    /// The server's defaults as a client connecting now reads them, from a connection made
    /// for this one reading and closed after it. On PipeWire a long-lived connection can miss
    /// a change of the default for good (Docs/Reliability.md); a new one reads the defaults in
    /// force. The reading carries that connection's client index, so that the caller can tell
    /// its client events from other applications'. The default implementation reads on this
    /// connection, for servers whose connections cannot miss a change.
    func serverInfoOnNewConnection() async throws -> NewConnectionReading

    /// A connection that holds the engine's standing fallback (``FallbackArming``), connected;
    /// nil (the default) when the server offers none. The engine opens one on PulseAudio, in
    /// system scope.
    func openFallbackConnection(logger: Logger) async -> (any FallbackArming)?
}

/// What ``AudioServer/serverInfoOnNewConnection()`` read: the server's information on a
/// connection made for it, and the index that connection's client had (nil when it read on
/// the long-lived connection itself).
public struct NewConnectionReading: Sendable, Equatable {
    /// The server's name, version and defaults, as the new connection read them.
    public var info: ServerInfo
    /// The new connection's client index: its client events are the reader's own.
    public var clientIndex: UInt32?

    /// A reading of `info` by the client at `clientIndex`.
    public init(info: ServerInfo, clientIndex: UInt32?) {
        self.info = info
        self.clientIndex = clientIndex
    }
}

extension AudioServer {
    /// Nothing to renew.
    public func renewConnection() async throws {}

    /// Reads on this connection: it cannot miss a change.
    public func serverInfoOnNewConnection() async throws -> NewConnectionReading {
        NewConnectionReading(info: try await serverInfo(), clientIndex: nil)
    }
}

extension AudioServer {
    /// Forwards ``events()`` to `handler` from a task that the observation cancels.
    public func observeEvents(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation {
        let stream = events()
        let forwarding = Task {
            for await event in stream { handler(event) }
            if !Task.isCancelled { handler(nil) }
        }
        return EventObservation { forwarding.cancel() }
    }
}

extension AudioServer {
    /// No preference: the engine runs on the global executor.
    public var preferredTaskExecutor: (any TaskExecutor)? { nil }
}

extension PulseClient: AudioServer {
    /// libpulse's event thread.
    public var preferredTaskExecutor: (any TaskExecutor)? { loopExecutor }

    /// Connects a second client to the same server (subscribed to nothing, never
    /// reconnecting), reads the server's information there, and disconnects it. It runs on
    /// the global executor, never on this client's event thread: stopping the second client
    /// joins its own thread, which must not hold up this client's events.
    public func serverInfoOnNewConnection() async throws -> NewConnectionReading {
        let configuration = Configuration(server: server, applicationName: "RouteKit default check",
                                          reconnectPolicy: .never, subscription: [])
        return try await withTaskExecutorPreference(globalConcurrentExecutor) {
            try await PulseClient.withConnection(configuration) { client in
                NewConnectionReading(info: try await client.serverInfo(), clientIndex: client.clientIndex)
            }
        }
    }
}
