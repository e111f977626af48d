import ConcurrencySupport
import PulseAudio

/// The streams in the engine's mirror (``ServerMirror/streams``), for a manager made to
/// mirror them: what the loop's stream readings answered, brought up to date with each batch
/// of stream events. Removals are applied as they come; a stream that appears or changes is
/// read by the loop's one stream reading (``lane``), started after the turn's requests are
/// out, so that a switch always goes first; the streams announced while it runs are read
/// together after it, as one list when many (``StreamBatchReading``). No delay, no reading of
/// a follower's own.
///
/// Every answer is placed at its event (``ReadingOrder``): one older than a later event of
/// the same stream is dropped. A new connection starts a new generation: what was asked on
/// the old one is dropped, and the streams are published again only once all of them have
/// been read on the new one.
struct StreamTracker: Sendable {
    /// A stream on one connection.
    struct Key: Hashable, Sendable {
        var generation: Int
        var isPlayback: Bool
        var index: UInt32
    }

    /// What a stream reading answered.
    enum Answer: Sendable {
        /// Every stream, asked when the event at `place` was the newest.
        case all(generation: Int, place: UInt64, playback: [SinkInputInfo], capture: [SourceOutputInfo])
        /// The streams asked for, each for its event, playback and recording apart; nil for a
        /// stream the server no longer has.
        case some(playback: [Reading<SinkInputInfo>], capture: [Reading<SourceOutputInfo>])
        /// The reading failed (the connection went, whose return reads everything again; or
        /// the server did not answer); for a reading of every stream, the generation it was for.
        case failed(allOf: Int?)
    }

    /// One stream as read for its event: nil when the server no longer has it.
    struct Reading<Info: Sendable>: Sendable {
        var key: Key
        var place: UInt64
        var stream: Info?
    }

    /// The streams waiting for the one reading; shared with the task that reads them.
    let lane = ReadingLane<Key>()
    private var playback: [UInt32: SinkInputInfo] = [:]
    private var capture: [UInt32: SourceOutputInfo] = [:]
    private var order = ReadingOrder<Key>()
    /// The place of the newest stream event, in the order they came.
    private var place: UInt64 = 0
    private(set) var generation = 0
    /// Whether every stream was read on this connection: only then are they published.
    private var isComplete = false
    /// Whether a reading of every stream is out.
    private var isReadingAll = false

    /// The streams as followers see them; nil until all were read on this connection.
    var published: ServerMirror.Streams? {
        isComplete ? ServerMirror.Streams(playback: playback, capture: capture) : nil
    }

    /// The connection went, or is new: nothing is known of its streams until they are read
    /// again (``startAll()``), and what was asked before is dropped. True when the published
    /// streams changed.
    mutating func connectionChanged() -> Bool {
        let wasPublished = isComplete
        generation += 1
        playback.removeAll()
        capture.removeAll()
        order = ReadingOrder()
        isComplete = false
        isReadingAll = false
        return wasPublished
    }

    /// Whether every stream must be read: not yet on this connection, and no such reading out.
    var needsReadingAll: Bool { !isComplete && !isReadingAll }

    /// A reading of every stream starts now: the generation and place it answers for.
    mutating func startAll() -> (generation: Int, place: UInt64) {
        isReadingAll = true
        return (generation, place)
    }

    /// Takes a batch's stream events: removals at once, the others to be read. Returns
    /// whether the published streams changed, and whether a reading must start (none runs).
    mutating func take(_ events: [SubscriptionEvent]) -> (changed: Bool, startReading: Bool) {
        var changed = false
        var startReading = false
        for event in events where event.facility == .sinkInput || event.facility == .sourceOutput {
            place += 1
            let key = Key(generation: generation, isPlayback: event.facility == .sinkInput, index: event.index)
            if event.kind == .remove {
                _ = order.isCurrent(key, place)
                changed = remove(key) || changed
            } else if lane.add(key, place: place) {
                startReading = true
            }
        }
        return (changed && isComplete, startReading)
    }

    /// Applies what a reading answered. Returns whether the published streams changed.
    mutating func apply(_ answer: Answer) -> Bool {
        switch answer {
        case .failed(let all):
            // A failed reading of everything is asked again with the next stream event (or
            // the connection's return).
            if all == generation { isReadingAll = false }
            return false
        case .all(let asked, let askedPlace, let playbackRead, let captureRead):
            guard asked == generation else { return false }
            isReadingAll = false
            // A stream with an event since the reading was asked keeps what that event's own
            // reading (or removal) says; a stream the list lacks was never there, or went
            // with an event of its own.
            for stream in playbackRead where order.isCurrent(Key(generation: asked, isPlayback: true, index: stream.index), askedPlace) {
                playback[stream.index] = stream
            }
            for stream in captureRead where order.isCurrent(Key(generation: asked, isPlayback: false, index: stream.index), askedPlace) {
                capture[stream.index] = stream
            }
            isComplete = true
            return true
        case .some(let playbackRead, let captureRead):
            var changed = false
            for reading in playbackRead where isCurrent(reading) { changed = Self.put(reading, in: &playback) || changed }
            for reading in captureRead where isCurrent(reading) { changed = Self.put(reading, in: &capture) || changed }
            return changed && isComplete
        }
    }

    /// Whether `reading` is of this connection and answers the newest event of its stream.
    private mutating func isCurrent<Info>(_ reading: Reading<Info>) -> Bool {
        reading.key.generation == generation && order.isCurrent(reading.key, reading.place)
    }

    /// Puts `reading` into `streams` (a stream gone is taken out); whether that changed them.
    private static func put<Info: Equatable>(_ reading: Reading<Info>, in streams: inout [UInt32: Info]) -> Bool {
        guard let stream = reading.stream else { return streams.removeValue(forKey: reading.key.index) != nil }
        return streams.updateValue(stream, forKey: reading.key.index) != stream
    }

    /// Reads the streams `due` names on `server`: playback and recording side by side, each
    /// by index when few and as one list when many.
    static func read(_ due: [(key: Key, place: UInt64)], on server: any AudioServer) async -> Answer {
        let playbackDue = due.filter(\.key.isPlayback)
        let captureDue = due.filter { !$0.key.isPlayback }
        do {
            async let playback = playbackDue.isEmpty ? [] : StreamBatchReading.read(
                playbackDue.map(\.key.index), index: \SinkInputInfo.index,
                lookup: { try await server.sinkInput(at: $0) }, list: { try await server.sinkInputs() })
            async let capture = captureDue.isEmpty ? [] : StreamBatchReading.read(
                captureDue.map(\.key.index), index: \SourceOutputInfo.index,
                lookup: { try await server.sourceOutput(at: $0) }, list: { try await server.sourceOutputs() })
            let (playbackRead, captureRead) = try await (playback, capture)
            return .some(playback: zip(playbackDue, playbackRead).map { Reading(key: $0.key, place: $0.place, stream: $1.stream) },
                         capture: zip(captureDue, captureRead).map { Reading(key: $0.key, place: $0.place, stream: $1.stream) })
        } catch {
            return .failed(allOf: nil)
        }
    }

    /// Reads every stream on `server`, for the generation and place ``startAll()`` gave.
    static func readAll(generation: Int, place: UInt64, on server: any AudioServer) async -> Answer {
        do {
            async let playback = server.sinkInputs()
            async let capture = server.sourceOutputs()
            return .all(generation: generation, place: place, playback: try await playback, capture: try await capture)
        } catch {
            return .failed(allOf: generation)
        }
    }

    private mutating func remove(_ key: Key) -> Bool {
        key.isPlayback ? playback.removeValue(forKey: key.index) != nil : capture.removeValue(forKey: key.index) != nil
    }
}
