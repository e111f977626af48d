import ConcurrencySupport

extension StreamCallDetector {
    /// Follows the streams of a manager's mirrors (``ServerMirror/streams``): the first mirror
    /// that carries them on a connection is every stream (a reset), each later one what
    /// changed since the one before, in the mirrors' order. A mirror without streams (the
    /// manager disconnected, or not read yet) passes nothing on; the next with them starts
    /// afresh.
    static func followMirrors(_ mirrors: AsyncStream<ServerMirror>, into queue: InputQueue<CallDetectionInput>) async {
        var last: ServerMirror.Streams?
        var place: UInt64 = 0
        for await mirror in mirrors {
            guard let streams = mirror.streams else {
                last = nil
                continue
            }
            place += 1
            guard let before = last else {
                queue.push(.reset(streams.playback.values.map(CallStream.init) + streams.capture.values.map(CallStream.init)))
                last = streams
                continue
            }
            for (index, stream) in streams.playback where before.playback[index] != stream {
                queue.push(.stream(CallStream(stream), order: place))
            }
            for (index, stream) in streams.capture where before.capture[index] != stream {
                queue.push(.stream(CallStream(stream), order: place))
            }
            for index in before.playback.keys where streams.playback[index] == nil {
                queue.push(.removed(CallStream.Key(.playback, index), order: place))
            }
            for index in before.capture.keys where streams.capture[index] == nil {
                queue.push(.removed(CallStream.Key(.capture, index), order: place))
            }
            last = streams
        }
    }
}
