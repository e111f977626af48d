import ConcurrencySupport
import PulseAudio
import RouteKit

extension RingtoneFollower {
    /// Follows the sinks and playback streams of a manager's mirrors: the first mirror that
    /// carries streams on a connection is everything (a reset), each later one what changed
    /// since the one before. A mirror without streams (the manager disconnected, or its
    /// streams not read yet) passes nothing on; the next with them starts afresh.
    static func followMirrors(_ mirrors: AsyncStream<ServerMirror>, into queue: InputQueue<RingtoneInput>) async {
        var last: (sinks: [UInt32: SinkInfo], streams: [UInt32: SinkInputInfo])?
        for await mirror in mirrors {
            guard let streams = mirror.streams?.playback else {
                last = nil
                continue
            }
            defer { last = (mirror.sinks, streams) }
            guard let before = last else {
                queue.push(.reset(sinks: mirror.sinks.values.map { ($0.index, $0.name) },
                                  streams: streams.values.map { ($0.index, $0.sink, $0.properties) }))
                continue
            }
            // Sinks first: a stream is placed by the name of the sink it plays on.
            for (index, sink) in mirror.sinks where before.sinks[index]?.name != sink.name {
                queue.push(.sink(index: index, name: sink.name))
            }
            for index in before.sinks.keys where mirror.sinks[index] == nil {
                queue.push(.sinkRemoved(index))
            }
            for (index, stream) in streams {
                let was = before.streams[index]
                if was?.sink != stream.sink || was?.properties != stream.properties {
                    queue.push(.stream(index: index, sink: stream.sink, properties: stream.properties))
                }
            }
            for index in before.streams.keys where streams[index] == nil {
                queue.push(.streamRemoved(index))
            }
        }
    }
}
