import ConcurrencySupport
import PulseAudio
import RouteKit

/// One thing the media machine is told, in the order it happened.
enum MediaInput: Sendable {
    /// Everything the server has, at start and after a reconnection.
    case reset(sinks: [SinkInfo], streams: [SinkInputInfo], defaultSink: String?)
    /// The server's announcements, each with the place of the event it answers in the
    /// server's order: reads run side by side and may come back out of order.
    case sink(SinkInfo, order: UInt64)
    case sinkRemoved(UInt32, order: UInt64)
    case stream(SinkInputInfo, order: UInt64)
    case streamRemoved(UInt32, order: UInt64)
    case defaultSink(String?, order: UInt64)
    case devices([AudioDevice])
    case callAudio(Bool)
    case players([MediaPlayer])
    case player(MediaPlayer)
    case playerVanished(String)
    case settings(MediaSettings)
    case callStreams(CallStreams)

    /// Feeds it to `machine`, unless `order` has seen something newer of the same object.
    func apply(to machine: inout MediaMachine, order: inout ReadingOrder<ServerObject>, now: ContinuousClock.Instant) -> [MediaAction] {
        switch self {
        case .reset(let sinks, let streams, let defaultSink):
            return machine.reset(sinks: sinks, streams: streams, defaultSink: defaultSink, now: now)
        case .sink(let sink, let place):
            return order.isCurrent(.sink(sink.index), place) ? machine.sinkSeen(sink, now: now) : []
        case .sinkRemoved(let index, let place):
            return order.isCurrent(.sink(index), place) ? machine.sinkRemoved(index, now: now) : []
        case .stream(let stream, let place):
            return order.isCurrent(.stream(stream.index), place) ? machine.streamSeen(stream, now: now) : []
        case .streamRemoved(let index, let place):
            return order.isCurrent(.stream(index), place) ? machine.streamRemoved(index, now: now) : []
        case .defaultSink(let name, let place):
            return order.isCurrent(.server, place) ? machine.defaultSinkChanged(name, now: now) : []
        default:
            return applyOther(to: &machine, now: now)
        }
    }

    private func applyOther(to machine: inout MediaMachine, now: ContinuousClock.Instant) -> [MediaAction] {
        switch self {
        case .reset, .sink, .sinkRemoved, .stream, .streamRemoved, .defaultSink: []
        case .devices(let devices): machine.devicesChanged(devices, now: now)
        case .callAudio(let isActive): machine.callAudioChanged(isActive, now: now)
        case .players(let players): machine.playersReset(players, now: now)
        case .player(let player): machine.playerSeen(player, now: now)
        case .playerVanished(let name): machine.playerVanished(name)
        case .settings(let settings): machine.settingsChanged(settings)
        case .callStreams(let calls): machine.callStreamsChanged(calls)
        }
    }
}

/// The objects whose readings the media guard orders (``ReadingOrder``): a sink, a stream, or
/// the server (its default).
enum ServerObject: Hashable, Sendable {
    case sink(UInt32)
    case stream(UInt32)
    case server
}
