import AudioContext
import FoundationEssentials
import PulseAudio
import RouteKit
import RouteKitDBus
import RouteKitDaemon

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
        /// Whether a RouteKit daemon routes.
        var daemon: Bool
        /// The daemon's process id, when it runs and the bus tells it.
        var daemonPid: UInt32?
        /// The device audio goes to, in `routectl list --json`'s shape.
        var output: DeviceOutput.JSONDevice?
        /// The default source and its device.
        var input: Input
        /// Why audio goes there, for people.
        var why: String
        /// The preferences, best first, and where they come from.
        var preferences: [String]
        var preferencesFrom: String
        /// The device chosen with `routectl use`, while the daemon keeps it.
        var selection: String?
        var callAudio: Bool
        var microphoneMuted: Bool?
        /// `silent`, `audible` or `unknown`: the default output muted or at volume 0.
        var silentMode: String
        /// The screen (`locked`, `unlocked`, `unknown`), idle, paused players and volume
        /// capture: the daemon's, absent without it.
        var screenLock: String?
        var idle: String?
        var pausedPlayers: [String]?
        var volumeCapture: Bool?

        // Absent optionals are written as null: every key is always there.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(server, forKey: .server)
            try container.encode(serverName, forKey: .serverName)
            try container.encode(serverVersion, forKey: .serverVersion)
            try container.encode(implementation, forKey: .implementation)
            try container.encode(pipewireVersion, forKey: .pipewireVersion)
            try container.encode(defaultSink, forKey: .defaultSink)
            try container.encode(defaultSource, forKey: .defaultSource)
            try container.encode(sinks, forKey: .sinks)
            try container.encode(sources, forKey: .sources)
            try container.encode(cards, forKey: .cards)
            try container.encode(playbackStreams, forKey: .playbackStreams)
            try container.encode(recordingStreams, forKey: .recordingStreams)
            try container.encode(daemon, forKey: .daemon)
            try container.encode(daemonPid, forKey: .daemonPid)
            try container.encode(output, forKey: .output)
            try container.encode(input, forKey: .input)
            try container.encode(why, forKey: .why)
            try container.encode(preferences, forKey: .preferences)
            try container.encode(preferencesFrom, forKey: .preferencesFrom)
            try container.encode(selection, forKey: .selection)
            try container.encode(callAudio, forKey: .callAudio)
            try container.encode(microphoneMuted, forKey: .microphoneMuted)
            try container.encode(silentMode, forKey: .silentMode)
            try container.encode(screenLock, forKey: .screenLock)
            try container.encode(idle, forKey: .idle)
            try container.encode(pausedPlayers, forKey: .pausedPlayers)
            try container.encode(volumeCapture, forKey: .volumeCapture)
        }

        enum CodingKeys: String, CodingKey {
            case server, serverName, serverVersion, implementation, pipewireVersion, defaultSink, defaultSource, sinks,
                 sources, cards, playbackStreams, recordingStreams, daemon, daemonPid, output, input, why, preferences,
                 preferencesFrom, selection, callAudio, microphoneMuted, silentMode, screenLock, idle, pausedPlayers,
                 volumeCapture
        }

        struct Input: Encodable {
            var source: String?
            var device: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(source, forKey: .source)
                try container.encode(device, forKey: .device)
            }

            enum CodingKeys: String, CodingKey { case source, device }
        }
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

    static func status(_ snapshot: ServerSnapshot, routing: RoutingStatus) -> Status {
        Status(server: snapshot.address, serverName: snapshot.info.serverName,
               serverVersion: snapshot.info.serverVersion, implementation: snapshot.info.implementation.rawValue,
               pipewireVersion: snapshot.info.pipeWireVersion, defaultSink: snapshot.info.defaultSinkName,
               defaultSource: snapshot.info.defaultSourceName, sinks: snapshot.sinks.count,
               sources: snapshot.sources.count, cards: snapshot.cards.count,
               playbackStreams: snapshot.sinkInputCount, recordingStreams: snapshot.sourceOutputCount,
               daemon: routing.answerer == .daemon, daemonPid: routing.daemonProcessID, output: routing.output.map(DeviceOutput.JSONDevice.init),
               input: Status.Input(source: routing.inputSource, device: routing.inputDevice?.id.rawValue),
               why: routing.why, preferences: routing.preferences, preferencesFrom: routing.preferencesOrigin.rawValue,
               selection: routing.selection, callAudio: routing.isCallAudioOn, microphoneMuted: routing.isMicrophoneMuted,
               silentMode: ContextSnapshot.Silence(isSilent: SilentMode(defaultSinkName: snapshot.info.defaultSinkName,
                                                                        sinks: snapshot.sinks).isSilent).rawValue,
               screenLock: routing.context?.screenLock.rawValue, idle: routing.context?.idle.rawValue,
               pausedPlayers: routing.context?.pausedPlayers, volumeCapture: routing.context?.volumeCapture)
    }

    /// Pretty-printed, keys sorted, so that output diffs well.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
