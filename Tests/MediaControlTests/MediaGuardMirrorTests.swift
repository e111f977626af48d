import ConcurrencySupport
@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// Media pausing beside a manager that mirrors streams: successive mirrors turned into the
/// machine's inputs, in the order the server announces an unplug.
@Suite("Media pausing from a manager's mirrors")
struct MediaGuardMirrorTests {
    /// What `mirrors` become, as words: each input the guard's loop would take, in order.
    static func inputs(_ mirrors: [ServerMirror]) async -> [MediaInput] {
        let (stream, continuation) = AsyncStream.makeStream(of: ServerMirror.self)
        for mirror in mirrors { continuation.yield(mirror) }
        continuation.finish()
        let queue = InputQueue<MediaInput>()
        await MediaGuard.followMirrors(stream, into: queue)
        queue.finish()
        var taken: [MediaInput] = []
        while let batch = await queue.nextBatch() { taken += batch }
        return taken
    }

    static func words(_ inputs: [MediaInput]) -> [String] {
        inputs.map { input in
            switch input {
            case .reset(let sinks, let streams, let defaultSink):
                "reset sinks \(sinks.map(\.index)) streams \(streams.map(\.index)) default \(defaultSink ?? "none")"
            case .sink(let sink, _): "sink \(sink.index)"
            case .sinkRemoved(let index, _): "sink \(index) removed"
            case .stream(let stream, _): "stream \(stream.index) on \(stream.sink)"
            case .streamRemoved(let index, _): "stream \(index) removed"
            case .defaultSink(let name, _): "default \(name ?? "none")"
            default: "other"
            }
        }
    }

    static func mirror(sinks: [SinkInfo], streams: [SinkInputInfo]?, defaultSink: String?, connected: Bool = true) -> ServerMirror {
        ServerMirror(isConnected: connected, sinks: Dictionary(uniqueKeysWithValues: sinks.map { ($0.index, $0) }),
                     defaultSinkName: defaultSink,
                     streams: streams.map { .init(playback: Dictionary(uniqueKeysWithValues: $0.map { ($0.index, $0) })) })
    }

    @Test("the first mirror with streams is everything; one without streams is nothing, and the next with them is everything again")
    func resets() async {
        let playing = Self.mirror(sinks: [Fixture.speaker, Fixture.headset], streams: [Fixture.stream(11, on: 1), Fixture.stream(10, on: 1)],
                                  defaultSink: "bt_headset")
        let gone = Self.mirror(sinks: [Fixture.speaker, Fixture.headset], streams: nil, defaultSink: "bt_headset", connected: false)
        let back = Self.mirror(sinks: [Fixture.speaker], streams: [], defaultSink: "speaker")
        let words = Self.words(await Self.inputs([playing, gone, back]))
        #expect(words == ["reset sinks [1, 2] streams [10, 11] default bt_headset",
                          "reset sinks [2] streams [] default speaker"])
    }

    @Test("what changed between two mirrors: new and changed sinks and the default, then streams, then the sinks that went; nothing for what stayed")
    func changesInUnplugOrder() async throws {
        let before = Self.mirror(sinks: [Fixture.headset, Fixture.speaker], streams: [Fixture.stream(10, on: 1), Fixture.stream(12, on: 2),
                                                                                     Fixture.stream(13, on: 2)],
                                 defaultSink: "bt_headset")
        let after = Self.mirror(sinks: [Fixture.speaker, Fixture.usbHeadset], streams: [Fixture.stream(10, on: 2), Fixture.stream(12, on: 2)],
                                defaultSink: "speaker")
        let inputs = await Self.inputs([before, after])
        #expect(Self.words(inputs) == ["reset sinks [1, 2] streams [10, 12, 13] default bt_headset",
                                       "sink 4", "default speaker", "stream 10 on 2", "stream 13 removed", "sink 1 removed"])
        // Each later input takes a later place, so that none is dropped as older than another.
        var places: [UInt64] = []
        for input in inputs {
            switch input {
            case .sink(_, let place), .sinkRemoved(_, let place), .stream(_, let place), .streamRemoved(_, let place),
                 .defaultSink(_, let place):
                places.append(place)
            default: break
            }
        }
        #expect(places == places.sorted() && Set(places).count == places.count)
    }

    @Test("a headset unplugged, its stream moved to the speaker in the same mirror: the stream is muted, once")
    func unplugFromOneMirror() async {
        let now = ContinuousClock.now
        let before = Self.mirror(sinks: [Fixture.headset, Fixture.speaker], streams: [Fixture.stream(10, on: 1)], defaultSink: "bt_headset")
        let after = Self.mirror(sinks: [Fixture.speaker], streams: [Fixture.stream(10, on: 2)], defaultSink: "speaker")
        var machine = MediaMachine(settings: MediaSettings())
        _ = machine.devicesChanged(Fixture.devices, now: now)
        var order = ReadingOrder<ServerObject>()
        var actions: [MediaAction] = []
        for input in await Self.inputs([before, after]) {
            actions += input.apply(to: &machine, order: &order, now: now)
        }
        #expect(actions.filter { if case .mute = $0 { true } else { false } } == [.mute(10)])
    }
}
