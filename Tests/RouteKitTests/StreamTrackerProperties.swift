import ConcurrencySupport
import PropertyBased
import PulseAudio
@testable import RouteKit
import Testing

/// The streams in the engine's mirror against a model server, over random runs: streams
/// created, changed and removed; the server answering the tracker's readings (one reading of
/// a few streams at a time, and the reading of everything at start) in its own order between
/// its events, as on one connection; each answer handed to the loop's queue by the task that
/// awaited it, so later events can get there first; the loop taking what arrived in batches
/// of any size, answers before events as ``EngineLoop`` does. Once everything asked is
/// answered and taken in, the published streams are the server's, whatever the interleaving.
@Suite("StreamTracker: the mirror ends as the server is")
struct StreamTrackerProperties {
    enum Step: Int, CaseIterable {
        case create, change, remove, serverAnswers, answerQueued, loopTakesOne, loopTakesThree
    }

    @Test("after any run, once every reading is answered and taken in, the published streams are the server's")
    func endsAsTheServerIs() async {
        let steps = Gen.int(in: 0...(Step.allCases.count - 1)).array(of: 1...60)
        await propertyCheck(count: 1000, input: steps) { codes in
            var run = Run()
            for code in codes { run.take(Step(rawValue: code) ?? .serverAnswers) }
            run.drain()
            if run.tracker.published?.playback != run.server {
                Issue.record("after \(codes.compactMap(Step.init)): mirror \(run.tracker.published.map { $0.playback.mapValues(\.sink) } ?? [:]) against the server's \(run.server.mapValues(\.sink))")
            }
        }
    }

    /// A model server, its connection's messages in order, and a loop with a tracker.
    struct Run {
        enum Message {
            case event(SubscriptionEvent)
            case answer(StreamTracker.Answer)
        }

        enum Request {
            case some([(key: StreamTracker.Key, place: UInt64)])
            case all(generation: Int, place: UInt64)
        }

        var server: [UInt32: SinkInputInfo] = [:]
        var nextIndex: UInt32 = 0
        var tracker = StreamTracker()
        /// What the server sent and the loop has not taken yet, in order.
        var inbox: [Message] = []
        /// What the loop asked and the server has not answered yet, in order.
        var requests: [Request] = []
        /// Answers the server sent whose tasks have not queued them yet, each with whether it
        /// is the lane's reader's.
        var answered: [(answer: StreamTracker.Answer, isLane: Bool)] = []
        /// Whether the lane's reader has a reading out.
        var readerBusy = false
        var moves = 0

        init() {
            // Streams already there when the manager starts; then its reading of everything.
            for _ in 0..<2 { create(announced: false) }
            startReadings(lane: false)
        }

        mutating func take(_ step: Step) {
            switch step {
            case .create: create(announced: true)
            case .change:
                guard !server.isEmpty else { break }
                moves += 1
                let index = server.keys.sorted()[moves % server.count]
                server[index]?.sink = UInt32(moves % 3)
                inbox.append(.event(SubscriptionEvent(facility: .sinkInput, kind: .change, index: index)))
            case .remove:
                guard let index = server.keys.min() else { break }
                server.removeValue(forKey: index)
                inbox.append(.event(SubscriptionEvent(facility: .sinkInput, kind: .remove, index: index)))
            case .serverAnswers: answerOne()
            case .answerQueued: queueOne()
            case .loopTakesOne: loopTurn(count: 1)
            case .loopTakesThree: loopTurn(count: 3)
            }
        }

        /// Everything asked is answered and taken in, until nothing more is asked.
        mutating func drain() {
            while !requests.isEmpty || !answered.isEmpty || !inbox.isEmpty {
                while !requests.isEmpty { answerOne() }
                while !answered.isEmpty { queueOne() }
                loopTurn(count: inbox.count)
            }
        }

        private mutating func create(announced: Bool) {
            let index = nextIndex
            nextIndex += 1
            server[index] = SinkInputInfo(index: index, name: "stream \(index)", client: nil, ownerModule: nil, sink: 0,
                                          volume: ChannelVolumes([65536]), isMuted: false, isCorked: false, properties: [:])
            if announced { inbox.append(.event(SubscriptionEvent(facility: .sinkInput, kind: .new, index: index))) }
        }

        /// The server answers the oldest request with what it has now.
        private mutating func answerOne() {
            guard !requests.isEmpty else { return }
            switch requests.removeFirst() {
            case .all(let generation, let place):
                answered.append((.all(generation: generation, place: place, playback: Array(server.values), capture: []), false))
            case .some(let due):
                answered.append((.playback(due.map { ($0.key, $0.place, server[$0.key.index]) }), true))
            }
        }

        /// The task that awaited the oldest answer queues it for the loop; the lane's reader
        /// then asks for what waits, at once.
        private mutating func queueOne() {
            guard !answered.isEmpty else { return }
            let (answer, isLane) = answered.removeFirst()
            inbox.append(.answer(answer))
            if isLane {
                readerBusy = false
                askNextLaneReading()
            }
        }

        /// One turn of the loop over the next `count` messages: answers, then events.
        private mutating func loopTurn(count: Int) {
            guard count > 0, !inbox.isEmpty else { return }
            let batch = inbox.prefix(count)
            inbox.removeFirst(batch.count)
            var events: [SubscriptionEvent] = []
            for message in batch {
                switch message {
                case .answer(let answer): _ = tracker.apply(answer)
                case .event(let event): events.append(event)
                }
            }
            let taken = tracker.take(events)
            startReadings(lane: taken.startReading)
        }

        private mutating func startReadings(lane: Bool) {
            if tracker.needsReadingAll {
                let (generation, place) = tracker.startAll()
                requests.append(.all(generation: generation, place: place))
            }
            if lane {
                readerBusy = true
                askNextLaneReading(starting: true)
            }
        }

        private mutating func askNextLaneReading(starting: Bool = false) {
            guard starting || !readerBusy else { return }
            let due = tracker.lane.next()
            guard !due.isEmpty else {
                readerBusy = false
                return
            }
            readerBusy = true
            requests.append(.some(due))
        }
    }
}
