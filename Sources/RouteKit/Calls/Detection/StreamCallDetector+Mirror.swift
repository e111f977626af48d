import ConcurrencySupport

extension StreamCallDetector {
    /// Follows the streams of a manager's mirrors (``ServerMirror/streams``): the first mirror
    /// that carries them on a connection is every stream (a reset), each later one what
    /// changed since the one before, in the mirrors' order (``ServerMirror/StreamFollowing``).
    static func followMirrors(_ mirrors: AsyncStream<ServerMirror>, into queue: InputQueue<CallDetectionInput>) async {
        var following = ServerMirror.StreamFollowing()
        var place: UInt64 = 0
        for await mirror in mirrors {
            guard let (before, now) = following.next(mirror), let streams = now.streams else { continue }
            place += 1
            guard let was = before?.streams else {
                queue.push(.reset(streams.playback.values.map(CallStream.init) + streams.capture.values.map(CallStream.init)))
                continue
            }
            let playback = streams.playback.changes(since: was.playback)
            let capture = streams.capture.changes(since: was.capture)
            for (_, stream) in playback.changed { queue.push(.stream(CallStream(stream), order: place)) }
            for (_, stream) in capture.changed { queue.push(.stream(CallStream(stream), order: place)) }
            for index in playback.removed { queue.push(.removed(CallStream.Key(.playback, index), order: place)) }
            for index in capture.removed { queue.push(.removed(CallStream.Key(.capture, index), order: place)) }
        }
    }
}
