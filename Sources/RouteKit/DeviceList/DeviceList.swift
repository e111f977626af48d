import Logging
import PulseAudio

/// The devices of a server, kept current from its events.
///
/// `start()` reads everything once; after that each event costs work for the object it is
/// about: one lookup on the server (`sink(at:)`, `card(at:)`, ...) and the devices of that
/// one card (or that one card-less sink or source) rebuilt. After a reconnection it reads
/// everything again, since changes made meanwhile were not announced.
///
/// ```swift
/// let list = DeviceList(server: client)
/// try await list.start()
/// for await change in await list.changes() { print(await list.devices) }
/// ```
public actor DeviceList {
    /// What changed after one event.
    public struct Change: Hashable, Sendable {
        /// Devices that appeared.
        public var added: Set<AudioDevice.ID>
        /// Devices that went away.
        public var removed: Set<AudioDevice.ID>
        /// Devices whose details changed (availability, ports, profile, active...).
        public var changed: Set<AudioDevice.ID>
        /// Whether the server's defaults changed (which device is active).
        public var defaultsChanged: Bool

        /// A change from its parts.
        public init(added: Set<AudioDevice.ID> = [], removed: Set<AudioDevice.ID> = [],
                    changed: Set<AudioDevice.ID> = [], defaultsChanged: Bool = false) {
            self.added = added
            self.removed = removed
            self.changed = changed
            self.defaultsChanged = defaultsChanged
        }

        /// Whether nothing changed.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty && !defaultsChanged }
    }

    private let server: any AudioServer
    private let logger: Logger
    private var state = DeviceListState()
    private var subscribers: [Int: AsyncStream<Change>.Continuation] = [:]
    private var nextSubscriber = 0
    private var eventTask: Task<Void, Never>?

    /// A list over `server`; nothing is read until ``start()``.
    public init(server: any AudioServer, logger: Logger = Logger(label: "routekit.devices")) {
        self.server = server
        self.logger = logger
    }

    /// Reads every card, sink and source, then follows the server's events until ``stop()``.
    public func start() async throws {
        guard eventTask == nil else { return }
        let events = server.events()  // subscribe first: nothing between the read and the stream is lost
        try await resynchronize()
        eventTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
    }

    /// Stops following events; ``devices`` keeps the last state.
    public func stop() {
        eventTask?.cancel()
        eventTask = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    /// Every device now, built-in microphones paired with the outputs that lack one and the
    /// active device marked.
    public var devices: [AudioDevice] { state.devices() }

    /// The device with `id`, if present.
    public func device(_ id: AudioDevice.ID) -> AudioDevice? { state.devices().first { $0.id == id } }

    /// The default sink's name, as the server last reported it.
    public var defaultSinkName: String? { state.defaultSinkName }

    /// The default source's name, as the server last reported it.
    public var defaultSourceName: String? { state.defaultSourceName }

    /// The sink named `name`, as the server last reported it (no request is made).
    public func sink(named name: String) -> SinkInfo? { state.sinks.values.first { $0.name == name } }

    /// The source named `name`, as the server last reported it (no request is made).
    public func source(named name: String) -> SourceInfo? { state.sources.values.first { $0.name == name } }

    /// The sink at `index`, as the server last reported it (no request is made).
    public func sink(at index: UInt32) -> SinkInfo? { state.sinks[index] }

    /// The source at `index`, as the server last reported it (no request is made).
    public func source(at index: UInt32) -> SourceInfo? { state.sources[index] }

    /// The card named `name`, as the server last reported it (no request is made).
    public func card(named name: String) -> CardInfo? { state.cards.values.first { $0.name == name } }

    /// One ``Change`` per event that changed something, from now on.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers.removeValue(forKey: id) }

    /// What following the server has cost so far.
    public struct Statistics: Hashable, Sendable {
        /// Events handled.
        public var events = 0
        /// Single-object lookups on the server (at most one an event).
        public var lookups = 0
        /// Complete re-reads (at start, and after each reconnection).
        public var fullReads = 0
        /// Time spent handling events, lookups included.
        public var handlingTime = Duration.zero
        /// Of ``handlingTime``, the time spent waiting for the server's answers to lookups.
        public var lookupTime = Duration.zero
    }

    /// What following the server has cost so far (for benchmarks, tests and diagnostics).
    public private(set) var statistics = Statistics()

    // MARK: Events

    func handle(_ event: PulseEvent) async {
        let start = ContinuousClock.now
        defer {
            statistics.events += 1
            statistics.handlingTime += ContinuousClock.now - start
        }
        do {
            let change: Change
            switch event {
            case .connectionStateChanged(.ready):
                change = try await resynchronize()
            case .connectionStateChanged:
                return
            case .subscription(let subscription):
                change = try await apply(subscription)
            }
            publish(change)
        } catch let error as PulseError where error.code == .connectionTerminated || error.code == .badState {
            // The connection went away: the resynchronization after reconnecting covers it.
            logger.debug("change not followed: disconnected", metadata: ["event": "\(event)"])
        } catch {
            logger.warning("could not follow a change", metadata: ["event": "\(event)", "error": "\(error)"])
        }
    }

    private func apply(_ event: SubscriptionEvent) async throws -> Change {
        let index = event.index
        switch (event.facility, event.kind) {
        case (.sink, .remove): return state.removeSink(index)
        case (.source, .remove): return state.removeSource(index)
        case (.card, .remove): return state.removeCard(index)
        case (.sink, _):
            guard let sink = try await lookUp({ try await $0.sink(at: index) }) else { return state.removeSink(index) }
            return state.upsert(sink)
        case (.source, _):
            guard let source = try await lookUp({ try await $0.source(at: index) }) else { return state.removeSource(index) }
            return state.upsert(source)
        case (.card, _):
            guard let card = try await lookUp({ try await $0.card(at: index) }) else { return state.removeCard(index) }
            return state.upsert(card)
        case (.server, _):
            let info = try await lookUp { try await $0.serverInfo() }
            return state.setDefaults(sink: info.defaultSinkName, source: info.defaultSourceName)
        default:
            return Change()
        }
    }

    /// One question to the server, counted and timed.
    private func lookUp<Value: Sendable>(_ question: @Sendable (any AudioServer) async throws -> Value) async throws -> Value {
        let start = ContinuousClock.now
        defer {
            statistics.lookups += 1
            statistics.lookupTime += ContinuousClock.now - start
        }
        return try await question(server)
    }

    @discardableResult
    private func resynchronize() async throws -> Change {
        statistics.fullReads += 1
        async let info = server.serverInfo()
        async let cards = server.cards()
        async let sinks = server.sinks()
        async let sources = server.sources()
        let before = Set(state.devices().map(\.id))
        state = try await DeviceListState(cards: cards, sinks: sinks, sources: sources, info: info)
        let after = Set(state.devices().map(\.id))
        return Change(added: after.subtracting(before), removed: before.subtracting(after),
                      changed: after.intersection(before), defaultsChanged: true)
    }

    private func publish(_ change: Change) {
        guard !change.isEmpty else { return }
        for continuation in subscribers.values { continuation.yield(change) }
    }
}
