import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// The streams in a manager's mirror (`mirrorsStreams`): what followers such as call detection
/// see instead of reading the server themselves. Each mirror is awaited as the manager hands
/// it on; the server's own view comes from the observer, another client.
@Suite("AudioDeviceManager: the streams in its mirror")
struct ManagerStreamMirrorTests {
    static let speaker = ConventionDevice.speakerphone("builtin")
    static let headset = ConventionDevice.wiredHeadset("usb_headset")

    @Test("a stream there at start, one that starts, moves and goes; after the server restarts, only the new server's",
          .timeLimit(.minutes(2)), arguments: SoundServerKind.allCases)
    func streamsFollowed(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [], mirrorsStreams: true) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            // Playing before the manager starts: no event will announce it.
            let early = try await rig.play(on: Self.speaker)
            try await rig.start(expecting: nil)
            let mirrors = rig.manager.mirrors()
            let speakerIndex = try #require(try await rig.observer.sink(named: Self.speaker.name)?.index)
            let headsetIndex = try #require(try await rig.observer.sink(named: Self.headset.name)?.index)
            try await Self.next(mirrors, "the stream playing at start") { Self.stream(of: early, in: $0)?.sink == speakerIndex }

            let late = try await rig.play(on: Self.speaker)
            let index = try #require(try await Self.index(of: late, rig.observer))
            try await Self.next(mirrors, "the stream that started") { Self.stream(of: late, in: $0)?.sink == speakerIndex }
            _ = try await rig.server.pactl("move-sink-input", String(index), Self.headset.name)
            let moved = try await Self.next(mirrors, "the stream on the headset") { Self.stream(of: late, in: $0)?.sink == headsetIndex }
            #expect(Self.stream(of: early, in: moved)?.sink == speakerIndex, "the other stream stays where it was")
            late.stop()
            let gone = try await Self.next(mirrors, "the stream gone") { Self.stream(of: late, in: $0) == nil }
            #expect(gone.streams?.playback.count == 1, "only the early stream: \(String(describing: gone.streams))")
            // One more before the restart, numbered past what the restarted server numbers first.
            let kept = try await rig.play(on: Self.headset)
            try await Self.next(mirrors, "one more stream") { Self.stream(of: kept, in: $0) != nil }

            // The server restarts: its streams died with it; the mirror carries none until the
            // manager has read the new server's, and then only those.
            try await rig.server.crash()
            try await Self.next(mirrors, "the mirror without streams while disconnected") { $0.streams == nil }
            try await rig.server.restart()
            try await rig.observer.connect()
            rig.forgetModules()
            try await rig.plug(Self.speaker)
            let after = try await rig.play(on: Self.speaker)
            let read = try await Self.next(mirrors, "the new server's stream") { Self.stream(of: after, in: $0) != nil }
            #expect(read.streams?.playback.count == 1, "nothing of the old server: \(String(describing: read.streams))")
            after.stop()
            early.stop()
            kept.stop()
        }
    }

    @Test("a manager made without mirrorsStreams mirrors no stream")
    func notMirrored() async throws {
        try await LiveManagerRig.run(.pulseaudio, preferences: []) { rig in
            try await rig.plug(Self.speaker)
            let stream = try await rig.play(on: Self.speaker)
            try await rig.start(expecting: nil)
            #expect(rig.manager.mirror.isConnected)
            #expect(rig.manager.mirror.streams == nil)
            stream.stop()
        }
    }

    /// The first mirror handed on, from now, that `condition` holds for.
    @discardableResult
    static func next(_ mirrors: AsyncStream<ServerMirror>, _ what: String,
                     _ condition: @escaping @Sendable (ServerMirror) -> Bool) async throws -> ServerMirror {
        try await withTimeout(what) {
            for await mirror in mirrors where condition(mirror) { return mirror }
            throw TimedOut(what: "\(what) (the mirrors ended)")
        }
    }

    /// The playing stream of `process` in `mirror`'s streams.
    static func stream(of process: StreamProcess, in mirror: ServerMirror) -> SinkInputInfo? {
        mirror.streams?.playback.values.first { $0.properties["application.process.id"] == String(process.processID) }
    }

    /// The index of `process`'s playing stream, as `observer` lists it.
    static func index(of process: StreamProcess, _ observer: PulseClient) async throws -> UInt32? {
        try await observer.sinkInputs().first { $0.properties["application.process.id"] == String(process.processID) }?.index
    }
}
