import Logging
import PulseAudio
import RouteKit

/// An ``AudioServer`` that passes every request to `base`: a test's server in front of a
/// real or simulated one implements only the requests it changes. Its events come through
/// `events()`, and the manager's loop runs on the global executor (`AudioServer`'s own
/// defaults), so that what the test does inside a request never runs on libpulse's thread.
public protocol ForwardingServer: AudioServer {
    associatedtype Base: AudioServer
    /// The server that answers.
    var base: Base { get }
}

extension ForwardingServer {
    public func serverInfo() async throws -> ServerInfo { try await base.serverInfo() }
    public func renewConnection() async throws { try await base.renewConnection() }
    public func serverInfoOnNewConnection() async throws -> NewConnectionReading { try await base.serverInfoOnNewConnection() }
    public func openFallbackConnection(logger: Logger) async -> (any FallbackArming)? {
        await base.openFallbackConnection(logger: logger)
    }
    public func sinks() async throws -> [SinkInfo] { try await base.sinks() }
    public func sources() async throws -> [SourceInfo] { try await base.sources() }
    public func cards() async throws -> [CardInfo] { try await base.cards() }
    public func sink(at index: UInt32) async throws -> SinkInfo? { try await base.sink(at: index) }
    public func source(at index: UInt32) async throws -> SourceInfo? { try await base.source(at: index) }
    public func sink(named name: String) async throws -> SinkInfo? { try await base.sink(named: name) }
    public func source(named name: String) async throws -> SourceInfo? { try await base.source(named: name) }
    public func card(at index: UInt32) async throws -> CardInfo? { try await base.card(at: index) }
    public func sinkInputs() async throws -> [SinkInputInfo] { try await base.sinkInputs() }
    public func sourceOutputs() async throws -> [SourceOutputInfo] { try await base.sourceOutputs() }
    public func sinkInput(at index: UInt32) async throws -> SinkInputInfo? { try await base.sinkInput(at: index) }
    public func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo? { try await base.sourceOutput(at: index) }
    public func events() -> AsyncStream<PulseEvent> { base.events() }
    public func setDefaultSink(_ sink: String) async throws { try await base.setDefaultSink(sink) }
    public func setDefaultSource(_ source: String) async throws { try await base.setDefaultSource(source) }
    public func resetDefaultSink() async throws { try await base.resetDefaultSink() }
    public func resetDefaultSource() async throws { try await base.resetDefaultSource() }
    public func moveSinkInput(_ sinkInput: UInt32, toSink sink: String) async throws { try await base.moveSinkInput(sinkInput, toSink: sink) }
    public func moveSourceOutput(_ sourceOutput: UInt32, toSource source: String) async throws {
        try await base.moveSourceOutput(sourceOutput, toSource: source)
    }
    public func setSinkPort(_ sink: String, port: String) async throws { try await base.setSinkPort(sink, port: port) }
    public func setSourcePort(_ source: String, port: String) async throws { try await base.setSourcePort(source, port: port) }
    public func setCardProfile(_ card: String, profile: String) async throws { try await base.setCardProfile(card, profile: profile) }
    public func setSourceMute(_ source: String, muted: Bool) async throws { try await base.setSourceMute(source, muted: muted) }
    public func setSourceOutputMute(_ sourceOutput: UInt32, muted: Bool) async throws {
        try await base.setSourceOutputMute(sourceOutput, muted: muted)
    }
}
