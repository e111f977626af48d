import PulseAudio
import RouteKit

/// What the direct commands read from the server before deciding: its defaults, sinks,
/// sources and cards, and the devices they make.
struct ServerView: Sendable {
    /// The server's name, version and defaults.
    var info: ServerInfo
    /// Every sink.
    var sinks: [SinkInfo]
    /// Every source, monitors included.
    var sources: [SourceInfo]
    /// Every card.
    var cards: [CardInfo]

    /// Reads it all at once.
    static func read(from server: any AudioServer) async throws -> ServerView {
        async let info = server.serverInfo()
        async let sinks = server.sinks()
        async let sources = server.sources()
        async let cards = server.cards()
        return try await ServerView(info: info, sinks: sinks, sources: sources, cards: cards)
    }

    /// The devices a person sees, the default sink's marked active.
    var devices: [AudioDevice] {
        DeviceModel.devices(cards: cards, sinks: sinks, sources: sources,
                            defaultSinkName: info.defaultSinkName, defaultSourceName: info.defaultSourceName)
    }

    /// The device audio goes to: the default sink's.
    var route: AudioDevice? { devices.first { $0.isActive && $0.output != nil } }

    /// The device `id` as the server shows it now.
    func device(_ id: AudioDevice.ID) -> AudioDevice? { devices.first { $0.id == id } }

    /// The default source, unless it is a monitor.
    var defaultSource: SourceInfo? {
        sources.first { $0.name == info.defaultSourceName && !$0.isMonitor }
    }

    /// The port each sink and source has active, by name.
    var activePorts: [String: String] {
        var ports: [String: String] = [:]
        for sink in sinks { if let port = sink.activePortName { ports[sink.name] = port } }
        for source in sources { if let port = source.activePortName { ports[source.name] = port } }
        return ports
    }
}
