import Foundation
import PulseAudio

/// The JSON shapes `routectl` prints with `--json`: a stable contract for scripts, kept
/// apart from the library's types so that the library can grow without breaking it.
enum JSONOutput {
    struct Port: Encodable {
        var name: String
        var description: String
        var type: String
        var availability: String
        var priority: UInt32
        var availabilityGroup: String?

        init(_ port: DevicePort) {
            name = port.name
            description = port.description
            type = port.type.description
            availability = port.availability.rawValue
            priority = port.priority
            availabilityGroup = port.availabilityGroup
        }
    }

    struct Device: Encodable {
        var index: UInt32
        var name: String
        var description: String
        var isDefault: Bool
        var state: String
        var muted: Bool
        var volumePercent: Double
        var activePort: String?
        var ports: [Port]
        var card: UInt32?
        var properties: [String: String]
        var monitorOf: String?
    }

    struct Listing: Encodable {
        var sinks: [Device]
        var sources: [Device]
    }

    struct Status: Encodable {
        var server: String
        var serverName: String
        var serverVersion: String
        var implementation: String
        var pipewireVersion: String?
        var defaultSink: String?
        var defaultSource: String?
        var sinks: Int
        var sources: Int
        var cards: Int
        var playbackStreams: Int
        var recordingStreams: Int
    }

    static func devices(_ snapshot: ServerSnapshot) -> Listing {
        Listing(
            sinks: snapshot.sinks.map { sink in
                Device(index: sink.index, name: sink.name, description: sink.description,
                       isDefault: sink.name == snapshot.info.defaultSinkName, state: sink.state.rawValue,
                       muted: sink.isMuted, volumePercent: sink.volume.percent.rounded(),
                       activePort: sink.activePortName, ports: sink.ports.map(Port.init), card: sink.card,
                       properties: sink.properties, monitorOf: nil)
            },
            sources: snapshot.sources.map { source in
                Device(index: source.index, name: source.name, description: source.description,
                       isDefault: source.name == snapshot.info.defaultSourceName, state: source.state.rawValue,
                       muted: source.isMuted, volumePercent: source.volume.percent.rounded(),
                       activePort: source.activePortName, ports: source.ports.map(Port.init), card: source.card,
                       properties: source.properties, monitorOf: source.monitorOfSinkName)
            })
    }

    static func status(_ snapshot: ServerSnapshot) -> Status {
        Status(server: snapshot.address, serverName: snapshot.info.serverName,
               serverVersion: snapshot.info.serverVersion, implementation: snapshot.info.implementation.rawValue,
               pipewireVersion: snapshot.info.pipeWireVersion, defaultSink: snapshot.info.defaultSinkName,
               defaultSource: snapshot.info.defaultSourceName, sinks: snapshot.sinks.count,
               sources: snapshot.sources.count, cards: snapshot.cards.count,
               playbackStreams: snapshot.sinkInputCount, recordingStreams: snapshot.sourceOutputCount)
    }

    /// Pretty-printed, keys sorted, so that output diffs well.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
