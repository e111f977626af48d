import ConcurrencySupport
import PulseAudio

/// The server's devices as the engine last saw them, brought up to date a batch of events at
/// a time: removals applied at once, one lookup per object that is new or changed (however
/// many events it had in the batch), all of a batch's lookups sent together.
struct DeviceTracker: Sendable {
    private(set) var state = DeviceListState()

    /// What a batch changed: the devices, as ``DeviceList`` publishes it, and what it cost.
    struct Change: Sendable {
        var devices = DeviceList.Change()
        /// How many lookups the batch cost.
        var lookups = 0
        var isEmpty: Bool { devices.isEmpty }
    }

    /// The facilities the tracker follows.
    static let facilities: Set<SubscriptionEvent.Facility> = [.sink, .source, .card, .server]

    /// Reads everything: at start and after each reconnection.
    static func read(from server: any AudioServer) async throws -> DeviceTracker {
        async let info = server.serverInfo()
        async let cards = server.cards()
        async let sinks = server.sinks()
        async let sources = server.sources()
        var tracker = DeviceTracker()
        tracker.state = try await DeviceListState(cards: cards, sinks: sinks, sources: sources, info: info)
        return tracker
    }

    var devices: [AudioDevice] { state.devices() }

    /// The server as the tracker sees it, for followers (``ServerMirror``).
    func mirror(isConnected: Bool) -> ServerMirror {
        ServerMirror(isConnected: isConnected, sinks: state.sinks, sources: state.sources, cards: state.cards,
                     defaultSinkName: state.defaultSinkName, defaultSourceName: state.defaultSourceName)
    }
    var defaultSinkName: String? { state.defaultSinkName }
    var defaultSourceName: String? { state.defaultSourceName }

    /// Takes the defaults of `info`, read apart from the event stream (on a renewed
    /// connection); the change says whether they differ from what the tracker had.
    mutating func takeDefaults(of info: ServerInfo) -> Change {
        Change(devices: state.setDefaults(sink: info.defaultSinkName, source: info.defaultSourceName))
    }

    /// Applies `events` (of ``facilities``; others are ignored), in order per object.
    mutating func apply(_ events: [SubscriptionEvent], from server: any AudioServer) async throws -> Change {
        var (change, round) = begin(events)
        let answers = try await Self.lookUp(round, on: server)
        change.devices.merge(finish(round, answers: answers).devices)
        return change
    }

    /// The lookups a batch needs, sent while the loop goes on: what they ask, and which
    /// objects had events after they were asked (their answers may be older than the events).
    struct LookupRound: Sendable {
        fileprivate var keys: [Key] = []
        /// The round's answers are placed at ``asked``, events that arrive while it runs
        /// after it: an answer about an object with such an event is dropped.
        fileprivate var order = ReadingOrder<Key>()
        fileprivate static let asked: UInt64 = 0
        fileprivate static let arrivedSince: UInt64 = 1
        /// Nothing to look up.
        var isEmpty: Bool { keys.isEmpty }
        /// The round asks for the server's defaults: the one whose answer comes back after
        /// the removal that caused it.
        var asksForDefaults: Bool { keys.contains { $0.facility == .server } }
    }

    /// What a round's lookups answered, in the keys' order.
    struct LookupAnswers: Sendable {
        fileprivate var pairs: [(Key, Answer)]
    }

    /// The first half of ``apply(_:from:)``: applies the batch's removals at once and says
    /// what must be looked up.
    mutating func begin(_ events: [SubscriptionEvent]) -> (Change, LookupRound) {
        var latest = events.filter { Self.facilities.contains($0.facility) }.latestPerObject()
            .map { (key: Key($0), kind: $0.kind) }
        if latest.contains(where: { $0.key.facility == .server }) {
            // The server announces a default it moved before the device it removes: the old
            // defaults are looked up in the same round, so that a removal is seen with it.
            for key in [defaultSinkKey, defaultSourceKey].compactMap({ $0 }) where !latest.contains(where: { $0.key == key }) {
                latest.append((key, .change))
            }
        }
        var change = Change()
        var round = LookupRound()
        for (key, kind) in latest {
            if kind == .remove {
                change.devices.merge(remove(key))
            } else {
                round.keys.append(key)
            }
        }
        change.lookups = round.keys.count
        return (change, round)
    }

    /// Events that arrived while `round` was being looked up: removals are applied now, and
    /// the answers about every object they name will be dropped (an answer may have been
    /// given before the event; the event itself is handled again by the loop's next turn,
    /// which asks afresh).
    mutating func applyRemovals(_ events: [SubscriptionEvent], during round: inout LookupRound) -> Change {
        var change = Change()
        for event in events.filter({ Self.facilities.contains($0.facility) }).latestPerObject() {
            let key = Key(event)
            _ = round.order.isCurrent(key, LookupRound.arrivedSince)
            if event.kind == .remove { change.devices.merge(remove(key)) }
        }
        return change
    }

    /// The second half of ``apply(_:from:)``: the round's answers, except those of objects
    /// that had events since they were asked for.
    mutating func finish(_ round: LookupRound, answers: LookupAnswers) -> Change {
        var change = Change()
        var order = round.order
        for (key, answer) in answers.pairs where order.isCurrent(key, LookupRound.asked) {
            change.devices.merge(upsert(key, answer))
        }
        return change
    }

    /// Sends every lookup of `round` at once; the answers once all are in.
    static func lookUp(_ round: LookupRound, on server: any AudioServer) async throws -> LookupAnswers {
        LookupAnswers(pairs: try await lookUp(round.keys, on: server))
    }

    // MARK: Helpers

    fileprivate struct Key: Hashable, Sendable {
        var facility: SubscriptionEvent.Facility
        var index: UInt32

        init(facility: SubscriptionEvent.Facility, index: UInt32) {
            self.facility = facility
            self.index = index
        }

        /// The object `event` is about; the server is one object, whatever index it names.
        init(_ event: SubscriptionEvent) {
            self.init(facility: event.facility, index: event.facility == .server ? 0 : event.index)
        }
    }

    private var defaultSinkKey: Key? {
        state.sinks.values.first { $0.name == state.defaultSinkName }.map { Key(facility: .sink, index: $0.index) }
    }

    private var defaultSourceKey: Key? {
        state.sources.values.first { $0.name == state.defaultSourceName }.map { Key(facility: .source, index: $0.index) }
    }

    fileprivate enum Answer: Sendable {
        case sink(SinkInfo?), source(SourceInfo?), card(CardInfo?), server(ServerInfo)
    }

    private mutating func remove(_ key: Key) -> DeviceList.Change {
        switch key.facility {
        case .sink: state.removeSink(key.index)
        case .source: state.removeSource(key.index)
        case .card: state.removeCard(key.index)
        default: DeviceList.Change()
        }
    }

    private mutating func upsert(_ key: Key, _ answer: Answer) -> DeviceList.Change {
        switch answer {
        case .sink(let sink): sink.map { state.upsert($0) } ?? state.removeSink(key.index)
        case .source(let source): source.map { state.upsert($0) } ?? state.removeSource(key.index)
        case .card(let card): card.map { state.upsert($0) } ?? state.removeCard(key.index)
        case .server(let info): state.setDefaults(sink: info.defaultSinkName, source: info.defaultSourceName)
        }
    }

    /// One lookup per key, all sent at once; answers in the keys' order. A single lookup is
    /// awaited directly, without a task group.
    private static func lookUp(_ keys: [Key], on server: any AudioServer) async throws -> [(Key, Answer)] {
        if keys.count == 1 { return [(keys[0], try await lookUp(keys[0], on: server))] }
        guard !keys.isEmpty else { return [] }
        return try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for (position, key) in keys.enumerated() {
                group.addTask { (position, try await lookUp(key, on: server)) }
            }
            var answers = [Answer?](repeating: nil, count: keys.count)
            for try await (position, answer) in group { answers[position] = answer }
            return zip(keys, answers).compactMap { key, answer in answer.map { (key, $0) } }
        }
    }

    private static func lookUp(_ key: Key, on server: any AudioServer) async throws -> Answer {
        switch key.facility {
        case .sink: .sink(try await server.sink(at: key.index))
        case .source: .source(try await server.source(at: key.index))
        case .card: .card(try await server.card(at: key.index))
        default: .server(try await server.serverInfo())
        }
    }
}
