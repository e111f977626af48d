import ConcurrencySupport
import PulseAudio
import RouteKit

extension RingtoneFollower {
    /// Follows the sinks and playback streams of a manager's mirrors: the first mirror that
    /// carries streams on a connection is everything (a reset), each later one what changed
    /// since the one before (``ServerMirror/StreamFollowing``).
    static func followMirrors(_ mirrors: AsyncStream<ServerMirror>, into queue: InputQueue<RingtoneInput>) async {
        var following = ServerMirror.StreamFollowing()
        for await mirror in mirrors {
            guard let (before, now) = following.next(mirror), let streams = now.streams?.playback else { continue }
            guard let before, let was = before.streams?.playback else {
                queue.push(.reset(sinks: now.sinks.values.map { ($0.index, $0.name) },
                                  streams: streams.values.map { ($0.index, $0.sink, $0.properties) }))
                continue
            }
            // Sinks first: a stream is placed by the name of the sink it plays on.
            let sinks = now.sinks.changes(since: before.sinks) { $0.name != $1.name }
            for (index, sink) in sinks.changed { queue.push(.sink(index: index, name: sink.name)) }
            for index in sinks.removed { queue.push(.sinkRemoved(index)) }
            let changed = streams.changes(since: was) { $0.sink != $1.sink || $0.properties != $1.properties }
            for (index, stream) in changed.changed {
                queue.push(.stream(index: index, sink: stream.sink, properties: stream.properties))
            }
            for index in changed.removed { queue.push(.streamRemoved(index)) }
        }
    }
}
