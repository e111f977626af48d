import ConcurrencySupport
import Logging
import PulseAudio

/// The devices of a server, kept current from its events.
///
/// `start()` reads everything once; after that it follows the server's events a batch at a
/// time, as the engine does (the same ``DeviceTracker``): removals cost nothing, an object
/// changed several times in a batch costs one lookup, a batch's lookups go out together, and
/// only the devices of the cards concerned are rebuilt. After a reconnection it reads
/// everything again, since changes made meanwhile were not announced. On a `PulseClient` it
/// follows on libpulse's own thread.
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
    private var tracker = DeviceTracker()
    private var subscribers: [Int: AsyncStream<Change>.Continuation] = [:]
    private var nextSubscriber = 0
    /// What ``start()`` leaves running, ended by ``stop()``.
    private var follower: Task<Void, Never>?

    /// A list over `server`; nothing is read until ``start()``.
    public init(server: any AudioServer, logger: Logger = Logger(label: "routekit.devices")) {
        self.server = server
        self.logger = logger
    }

    /// Reads every card, sink and source, then follows the server's events until ``stop()``.
    /// Throws `PulseError` when the first read fails. Starting a started list does nothing.
    public func start() async throws {
        guard follower == nil else { return }
        // Observe first: nothing between the read and the first batch is lost.
        let queue = InputQueue<PulseEvent?>()
        let observation = server.observeEvents { queue.push($0) }
        do {
            try await resynchronize()
        } catch {
            observation.cancel()
            throw error
        }
        let executor = server.preferredTaskExecutor
        follower = Task { [weak self] in
            await withTaskExecutorPreference(executor) {
                defer { observation.cancel() }
                while let batch = await queue.nextBatch(), !Task.isCancelled {
                    guard let self, await self.follow(batch) else { return }
                }
            }
        }
    }

    /// Stops following events; ``devices`` keeps the last state. Ends every ``changes()``
    /// stream.
    public func stop() {
        follower?.cancel()
        follower = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    /// Every device now, built-in microphones paired with the outputs that lack one and the
    /// active device marked.
    public var devices: [AudioDevice] { tracker.devices }

    /// The device with `id`, if present.
    public func device(_ id: AudioDevice.ID) -> AudioDevice? { tracker.devices.first { $0.id == id } }

    /// The default sink's name, as the server last reported it.
    public var defaultSinkName: String? { tracker.defaultSinkName }

    /// The default source's name, as the server last reported it.
    public var defaultSourceName: String? { tracker.defaultSourceName }

    /// The sink named `name`, as the server last reported it (no request is made).
    public func sink(named name: String) -> SinkInfo? { tracker.state.sinks.values.first { $0.name == name } }

    /// The source named `name`, as the server last reported it (no request is made).
    public func source(named name: String) -> SourceInfo? { tracker.state.sources.values.first { $0.name == name } }

    /// The sink at `index`, as the server last reported it (no request is made).
    public func sink(at index: UInt32) -> SinkInfo? { tracker.state.sinks[index] }

    /// The source at `index`, as the server last reported it (no request is made).
    public func source(at index: UInt32) -> SourceInfo? { tracker.state.sources[index] }

    /// The card named `name`, as the server last reported it (no request is made).
    public func card(named name: String) -> CardInfo? { tracker.state.cards.values.first { $0.name == name } }

    /// One ``Change`` per batch of events that changed something, from now on.
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
    package struct Statistics: Hashable, Sendable {
        /// Events handled.
        package var events = 0
        /// Single-object lookups on the server (at most one an event, one an object in a batch).
        package var lookups = 0
        /// Complete re-reads (at start, and after each reconnection).
        package var fullReads = 0
        /// Time spent handling events, lookups included.
        package var handlingTime = Duration.zero
        /// Of ``handlingTime``, the time spent waiting for the server's answers to lookups.
        package var lookupTime = Duration.zero
    }

    /// What following the server has cost so far: package access, for the benchmarks and tests.
    package private(set) var statistics = Statistics()

    // MARK: Events

    /// One batch (nil: the server's connection was shut down). False when following ends.
    func follow(_ batch: [PulseEvent?]) async -> Bool {
        let start = ContinuousClock.now
        defer {
            statistics.events += batch.count
            statistics.handlingTime += ContinuousClock.now - start
        }
        var subscriptions: [SubscriptionEvent] = []
        var reconnected = false
        for event in batch {
            switch event {
            case nil:
                return false
            case .subscription(let subscription)?:
                subscriptions.append(subscription)
            case .connectionStateChanged(.ready)?:
                // What came before the connection was back belongs to the old one.
                reconnected = true
                subscriptions.removeAll()
            case .connectionStateChanged?:
                break
            }
        }
        do {
            if reconnected {
                publish(try await resynchronize())
            } else if !subscriptions.isEmpty {
                var tracker = self.tracker
                let lookupStart = ContinuousClock.now
                let change = try await tracker.apply(subscriptions, from: server)
                self.tracker = tracker
                if change.lookups > 0 {
                    statistics.lookups += change.lookups
                    statistics.lookupTime += ContinuousClock.now - lookupStart
                }
                publish(change.devices)
            }
        } catch let error as PulseError where error.code == .connectionTerminated || error.code == .badState {
            // The connection went away: the resynchronization after reconnecting covers it.
            logger.debug("changes not followed: disconnected", metadata: ["events": "\(batch.count)"])
        } catch is CancellationError {
            return false
        } catch {
            logger.warning("could not follow a change", metadata: ["events": "\(batch.count)", "error": "\(error)"])
        }
        return true
    }

    @discardableResult
    private func resynchronize() async throws -> Change {
        statistics.fullReads += 1
        let before = Set(tracker.devices.map(\.id))
        tracker = try await DeviceTracker.read(from: server)
        let after = Set(tracker.devices.map(\.id))
        return Change(added: after.subtracting(before), removed: before.subtracting(after),
                      changed: after.intersection(before), defaultsChanged: true)
    }

    private func publish(_ change: Change) {
        guard !change.isEmpty else { return }
        for continuation in subscribers.values { continuation.yield(change) }
    }
}

extension DeviceList.Change {
    /// Adds `other` to this change: a device removed and added again counts as added.
    mutating func merge(_ other: DeviceList.Change) {
        added.formUnion(other.added)
        removed.formUnion(other.removed)
        changed.formUnion(other.changed)
        defaultsChanged = defaultsChanged || other.defaultsChanged
        removed.subtract(added)
    }
}
