import PulseAudio
import RouteKit

/// One thing the media machine is told, in the order it happened.
enum MediaInput: Sendable {
    /// Everything the server has, at start and after a reconnection.
    case reset(sinks: [SinkInfo], streams: [SinkInputInfo], defaultSink: String?)
    case sink(SinkInfo)
    case sinkRemoved(UInt32)
    case stream(SinkInputInfo)
    case streamRemoved(UInt32)
    case defaultSink(String?)
    case devices([AudioDevice])
    case callAudio(Bool)
    case players([MediaPlayer])
    case player(MediaPlayer)
    case playerVanished(String)
    case settings(MediaSettings)

    /// Feeds it to `machine`.
    func apply(to machine: inout MediaMachine, now: ContinuousClock.Instant) -> [MediaAction] {
        switch self {
        case .reset(let sinks, let streams, let defaultSink):
            machine.reset(sinks: sinks, streams: streams, defaultSink: defaultSink)
        case .sink(let sink): machine.sinkSeen(sink, now: now)
        case .sinkRemoved(let index): machine.sinkRemoved(index, now: now)
        case .stream(let stream): machine.streamSeen(stream, now: now)
        case .streamRemoved(let index): machine.streamRemoved(index)
        case .defaultSink(let name): machine.defaultSinkChanged(name, now: now)
        case .devices(let devices): machine.devicesChanged(devices, now: now)
        case .callAudio(let isActive): machine.callAudioChanged(isActive, now: now)
        case .players(let players): machine.playersReset(players, now: now)
        case .player(let player): machine.playerSeen(player, now: now)
        case .playerVanished(let name): machine.playerVanished(name)
        case .settings(let settings): machine.settingsChanged(settings)
        }
    }
}
