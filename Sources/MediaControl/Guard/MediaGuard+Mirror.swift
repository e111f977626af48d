import ConcurrencySupport
import PulseAudio
import RouteKit

extension MediaGuard {
    /// Follows the sinks, playback streams and default sink of a manager's mirrors, reading
    /// nothing: the first mirror that carries streams on a connection is everything (a reset),
    /// each later one what changed since the one before (``ServerMirror/StreamFollowing``).
    ///
    /// What changed is passed on in the order the server announces an unplug: sinks that
    /// appeared or changed and the default first (a stream is placed by its sink), then the
    /// streams, then the sinks that went, so that a stream moved off a sink just before its
    /// removal is known as moved when the removal exposes it. Mirrors come one after another,
    /// so every input is current: each takes the next place.
    static func followMirrors(_ mirrors: AsyncStream<ServerMirror>, into queue: InputQueue<MediaInput>) async {
        var following = ServerMirror.StreamFollowing()
        var place: UInt64 = 0
        func next() -> UInt64 {
            place += 1
            return place
        }
        for await mirror in mirrors {
            guard let (before, now) = following.next(mirror), let streams = now.streams?.playback else { continue }
            guard let before, let was = before.streams?.playback else {
                queue.push(.reset(sinks: now.sinks.values.sorted { $0.index < $1.index },
                                  streams: streams.values.sorted { $0.index < $1.index },
                                  defaultSink: now.defaultSinkName))
                continue
            }
            let sinks = now.sinks.changes(since: before.sinks)
            for (_, sink) in sinks.changed.sorted(by: { $0.0 < $1.0 }) { queue.push(.sink(sink, order: next())) }
            if now.defaultSinkName != before.defaultSinkName {
                queue.push(.defaultSink(now.defaultSinkName, order: next()))
            }
            let changed = streams.changes(since: was)
            for (_, stream) in changed.changed.sorted(by: { $0.0 < $1.0 }) { queue.push(.stream(stream, order: next())) }
            for index in changed.removed.sorted() { queue.push(.streamRemoved(index, order: next())) }
            for index in sinks.removed.sorted() { queue.push(.sinkRemoved(index, order: next())) }
        }
    }
}
