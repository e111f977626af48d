import ConcurrencySupport
import PulseAudio
@testable import RouteKit
import Testing

/// The streams in the engine's mirror (``StreamTracker``): removals at once, one reading at a
/// time for the rest, an answer older than a later event dropped, nothing published until
/// every stream was read on the connection, and nothing of an old connection taken on a new one.
struct StreamTrackerTests {
    static func playing(_ index: UInt32, on sink: UInt32 = 1, corked: Bool = false) -> SinkInputInfo {
        SinkInputInfo(index: index, name: "stream \(index)", client: 7, ownerModule: nil, sink: sink,
                      volume: ChannelVolumes([65536, 65536]), isMuted: false, isCorked: corked, properties: ["media.role": "music"])
    }

    static func recording(_ index: UInt32) -> SourceOutputInfo {
        SourceOutputInfo(index: index, name: "recording \(index)", client: 7, ownerModule: nil, source: 2,
                         volume: ChannelVolumes([65536]), isMuted: false, isCorked: false, properties: ["media.role": "phone"])
    }

    static func event(_ kind: SubscriptionEvent.Kind, playback index: UInt32) -> SubscriptionEvent {
        SubscriptionEvent(facility: .sinkInput, kind: kind, index: index)
    }

    /// A tracker that has read every stream on its connection: `streams` playing.
    static func complete(_ streams: [SinkInputInfo] = [], capture: [SourceOutputInfo] = []) -> StreamTracker {
        var tracker = StreamTracker()
        let (generation, place) = tracker.startAll()
        _ = tracker.apply(.all(generation: generation, place: place, playback: streams, capture: capture))
        return tracker
    }

    /// The key the tracker gives the playback stream `index` on its connection.
    static func key(_ tracker: StreamTracker, playback index: UInt32) -> StreamTracker.Key {
        StreamTracker.Key(generation: tracker.generation, isPlayback: true, index: index)
    }

    @Test("nothing is published until every stream was read; then all of them")
    func publishedOnceReadAll() {
        var tracker = StreamTracker()
        #expect(tracker.needsReadingAll)
        #expect(tracker.published == nil)
        let (generation, place) = tracker.startAll()
        #expect(!tracker.needsReadingAll, "one reading of everything at a time")
        // A stream's own reading, answered first, is kept but not published alone.
        let taken = tracker.take([Self.event(.new, playback: 5)])
        #expect(taken.startReading)
        let earlyAnswer = tracker.apply(.playback([(Self.key(tracker, playback: 5), UInt64(1), Self.playing(5))]))
        #expect(!earlyAnswer)
        #expect(tracker.published == nil)
        let readAll = tracker.apply(.all(generation: generation, place: place, playback: [Self.playing(3)], capture: [Self.recording(4)]))
        #expect(readAll)
        #expect(tracker.published == ServerMirror.Streams(playback: [3: Self.playing(3), 5: Self.playing(5)], capture: [4: Self.recording(4)]))
    }

    @Test("a removal is applied at once; a reading of an earlier event that answers after it is dropped")
    func removalWinsOverAnOlderReading() {
        var tracker = Self.complete([Self.playing(3)])
        // The stream changes (a reading goes out), then goes before that reading answers.
        let changed = tracker.take([Self.event(.change, playback: 3)])
        #expect(changed == (changed: false, startReading: true))
        let removed = tracker.take([Self.event(.remove, playback: 3)])
        #expect(removed.changed)
        #expect(tracker.published?.playback.isEmpty == true)
        let late = tracker.apply(.playback([(Self.key(tracker, playback: 3), UInt64(1), Self.playing(3, corked: true))]))
        #expect(!late, "the reading asked before the removal brings no ghost back")
        #expect(tracker.published?.playback.isEmpty == true)
    }

    @Test("the streams announced while a reading runs wait for it; each answer counts for its event")
    func oneReadingAtATime() {
        var tracker = Self.complete([Self.playing(3)])
        let changed = tracker.take([Self.event(.change, playback: 3)])
        #expect(changed.startReading)
        // The lane's reader takes what waits; what comes meanwhile starts no second reader.
        let first = tracker.lane.next()
        #expect(first.map(\.key.index) == [3])
        let meanwhile = tracker.take([Self.event(.new, playback: 8), Self.event(.change, playback: 3)])
        #expect(!meanwhile.startReading)
        let firstChanged = tracker.apply(.playback([(first[0].key, first[0].place, Self.playing(3, on: 2))]))
        #expect(firstChanged)
        #expect(tracker.published?.playback[3]?.sink == 2)
        let second = tracker.lane.next()
        #expect(Set(second.map(\.key.index)) == [3, 8])
        #expect(tracker.lane.next().isEmpty, "the lane is idle again")
        let secondChanged = tracker.apply(.playback(second.map { ($0.key, $0.place, Self.playing($0.key.index, on: 4)) }))
        #expect(secondChanged)
        #expect(tracker.published?.playback.mapValues(\.sink) == [3: 4, 8: 4])
        // A reading that finds nothing: the stream went.
        _ = tracker.take([Self.event(.change, playback: 8)])
        let third = tracker.lane.next()
        let goneChanged = tracker.apply(.playback([(third[0].key, third[0].place, nil)]))
        #expect(goneChanged)
        #expect(tracker.published?.playback.keys.sorted() == [3])
    }

    @Test("the reading of everything keeps what events since it was asked said")
    func readAllAfterNewerEvents() {
        var tracker = StreamTracker()
        let (generation, place) = tracker.startAll()
        // After the reading was asked: stream 3 went, stream 4 changed and was read.
        _ = tracker.take([Self.event(.remove, playback: 3), Self.event(.change, playback: 4)])
        let due = tracker.lane.next()
        _ = tracker.apply(.playback(due.map { ($0.key, $0.place, Self.playing(4, on: 9)) }))
        // The server had answered the list before both events.
        _ = tracker.apply(.all(generation: generation, place: place, playback: [Self.playing(3), Self.playing(4)], capture: []))
        #expect(tracker.published?.playback.mapValues(\.sink) == [4: 9])
    }

    @Test("a new connection publishes nothing until read again, and drops what was asked on the old one")
    func newConnection() {
        var tracker = Self.complete([Self.playing(3)])
        _ = tracker.take([Self.event(.change, playback: 3)])
        let asked = tracker.lane.next()
        let (oldGeneration, oldPlace) = (tracker.generation, UInt64(0))
        let lost = tracker.connectionChanged()
        #expect(lost, "the published streams went")
        #expect(tracker.published == nil)
        #expect(tracker.needsReadingAll)
        let oldAnswer = tracker.apply(.playback(asked.map { ($0.key, $0.place, Self.playing(3, on: 5)) }))
        #expect(!oldAnswer)
        let oldReadAll = tracker.apply(.all(generation: oldGeneration, place: oldPlace, playback: [Self.playing(3)], capture: []))
        #expect(!oldReadAll)
        #expect(tracker.published == nil)
        let (generation, place) = tracker.startAll()
        let newReadAll = tracker.apply(.all(generation: generation, place: place, playback: [Self.playing(12)], capture: []))
        #expect(newReadAll)
        #expect(tracker.published?.playback.keys.sorted() == [12])
    }

    @Test("a reading of everything that failed is asked again; a failed reading of a few is not")
    func failedReadingAll() {
        var tracker = StreamTracker()
        _ = tracker.startAll()
        #expect(!tracker.needsReadingAll)
        _ = tracker.apply(.failed(allOf: nil))
        #expect(!tracker.needsReadingAll)
        _ = tracker.apply(.failed(allOf: tracker.generation))
        #expect(tracker.needsReadingAll)
    }
}

extension StreamTracker.Answer {
    /// Playback streams as read, each for its event (nil: gone), and no recording.
    static func playback(_ read: [(key: StreamTracker.Key, place: UInt64, stream: SinkInputInfo?)]) -> Self {
        .some(playback: read.map { StreamTracker.Reading(key: $0.key, place: $0.place, stream: $0.stream) }, capture: [])
    }
}
