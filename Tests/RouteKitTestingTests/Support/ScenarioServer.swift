import PulseAudio

/// The few things the real-versus-simulated scenarios do, on either server.
protocol ScenarioServer: Sendable {
    /// The server's events, from now on.
    func events() -> AsyncStream<PulseEvent>
    /// Plugs in a null sink called `name`.
    func plug(_ name: String, _ properties: [String: String]) async throws
    /// Unplugs the null sink called `name`.
    func unplug(_ name: String) async throws
    /// Adds the fence: a null source whose mute toggles mark the end of each step.
    func addFence() async throws -> UInt32
    /// Mutes or unmutes the fence.
    func setFenceMute(_ muted: Bool) async throws
    /// Sets the default sink.
    func setDefaultSink(_ name: String) async throws
    /// Mutes or unmutes a sink.
    func setSinkMute(_ name: String, _ muted: Bool) async throws
    /// Moves stream `stream` (as ``startStream(on:)`` numbered it) to `sink`.
    func moveStream(_ stream: Int, to sink: String) async throws
    /// Starts a playback stream, with a client of its own, on `sink`; returns its number.
    func startStream(on sink: String) async throws -> Int
    /// Ends stream `stream`: its client leaves.
    func stopStream(_ stream: Int) async throws
    /// The server's routing now.
    func routing() async throws -> Routing
}

extension ScenarioServer {
    /// Routing as the snapshots of `server` show it.
    static func routing(of server: some AudioServerSnapshots) async throws -> Routing {
        let info = try await server.serverInfo()
        let sinks = try await server.sinks()
        let names = Dictionary(uniqueKeysWithValues: sinks.map { ($0.index, $0.name) })
        let streams = try await server.sinkInputs().sorted { $0.index < $1.index }
        return Routing(defaultSink: info.defaultSinkName, defaultSource: info.defaultSourceName,
                       sinks: sinks.map(\.name).sorted(), streamSinks: streams.map { names[$0.sink] ?? "?" })
    }
}

/// The reads ``ScenarioServer/routing(of:)`` needs (both PulseClient and SimulatedServer have them).
protocol AudioServerSnapshots: Sendable {
    func serverInfo() async throws -> ServerInfo
    func sinks() async throws -> [SinkInfo]
    func sinkInputs() async throws -> [SinkInputInfo]
}

extension PulseClient: AudioServerSnapshots {}
