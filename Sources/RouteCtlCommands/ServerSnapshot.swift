import PulseAudio
import RouteKit
import RouteKitDaemon

/// What `routectl list` and `routectl status` show, read from the server in one go.
struct ServerSnapshot: Sendable {
    var address: String
    var info: ServerInfo
    var sinks: [SinkInfo]
    var sources: [SourceInfo]
    var cards: [CardInfo]
    var sinkInputCount: Int
    var sourceOutputCount: Int

    static func read(from client: PulseClient) async throws -> ServerSnapshot {
        async let info = client.serverInfo()
        async let sinks = client.sinks()
        async let sources = client.sources()
        async let cards = client.cards()
        async let sinkInputs = client.sinkInputs()
        async let sourceOutputs = client.sourceOutputs()
        return try await ServerSnapshot(
            address: client.server ?? getenvString("PULSE_SERVER") ?? "default",
            info: info, sinks: sinks.sorted { $0.index < $1.index },
            sources: sources.sorted { $0.index < $1.index }, cards: cards.sorted { $0.index < $1.index },
            sinkInputCount: sinkInputs.count, sourceOutputCount: sourceOutputs.count)
    }
}

extension ServerSnapshot {
    /// The devices a person sees, built from this snapshot.
    var devices: [AudioDevice] {
        DeviceModel.devices(cards: cards, sinks: sinks, sources: sources,
                            defaultSinkName: info.defaultSinkName, defaultSourceName: info.defaultSourceName)
    }
}
