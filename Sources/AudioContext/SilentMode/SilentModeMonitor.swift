import Logging
import PulseAudio
import RouteKit

/// Follows silent mode: reads it now, and gives every change from then on.
///
/// Beside an ``AudioDeviceManager`` (``init(manager:logger:)``) it reads nothing: silent mode
/// is a function of the manager's ``ServerMirror``, which the manager keeps with the lookups
/// routing makes anyway. On its own (``init(server:logger:)``) it listens to the server's
/// event stream and reads the default sink again after each event that can change the
/// answer (``DefaultSinkFollowing``). Either way the decision is
/// ``SilentMode/init(defaultSinkName:sinks:)``.
public struct SilentModeMonitor: Sendable {
    enum Source: Sendable {
        case server(any AudioServer)
        case manager(AudioDeviceManager)
    }

    let source: Source
    let logger: Logger

    /// A monitor that reads `server` itself; `logger` hears of reads that fail.
    public init(server: any AudioServer, logger: Logger) {
        self.source = .server(server)
        self.logger = logger
    }

    /// A monitor that follows `manager`'s mirror of its server, and reads nothing.
    public init(manager: AudioDeviceManager, logger: Logger) {
        self.source = .manager(manager)
        self.logger = logger
    }

    /// Silent mode now. Throws `PulseError` when the server cannot be read; beside a manager,
    /// ``SilentMode/unknown`` until the manager has read its server.
    public func current() async throws -> SilentMode {
        switch source {
        case .server(let server):
            var following = DefaultSinkFollowing()
            return try await SilentMode(following.read(after: nil, from: server)) ?? .unknown
        case .manager(let manager):
            return SilentMode(manager.mirror)
        }
    }

    /// Silent mode now, then each change: the first element is the state when iteration
    /// starts; after it, only states that differ from the one before. The sequence ends when
    /// the server's connection is shut down (the manager stopped) or the iterating task is
    /// cancelled.
    public func changes() -> SilentModeChanges {
        SilentModeChanges(monitor: self)
    }
}

extension SilentMode {
    /// Silent mode as `mirror` shows it: unknown while the manager is not connected.
    init(_ mirror: ServerMirror) {
        guard mirror.isConnected, let sink = mirror.defaultSink else {
            self = .unknown
            return
        }
        self.init(sink: sink)
    }
}

/// Silent mode's changes: see ``SilentModeMonitor/changes()``.
public struct SilentModeChanges: AsyncSequence, Sendable {
    /// What the sequence gives.
    public typealias Element = SilentMode
    /// It never throws: a failed read is ``SilentMode/unknown`` until the next event.
    public typealias Failure = Never

    let monitor: SilentModeMonitor

    /// An iterator that subscribes to the server's events (or the manager's mirrors) before
    /// its first reading.
    public func makeAsyncIterator() -> Iterator {
        switch monitor.source {
        case .server(let server):
            Iterator(monitor: monitor, events: server.events().makeAsyncIterator())
        case .manager(let manager):
            Iterator(monitor: monitor, mirrors: manager.mirrors().makeAsyncIterator())
        }
    }

    /// Reads on demand: each `next()` waits for events until the state differs from the
    /// last one given. No task of its own: the reads run in the iterating task.
    public struct Iterator: AsyncIteratorProtocol {
        let monitor: SilentModeMonitor
        var events: AsyncStream<PulseEvent>.Iterator?
        var mirrors: AsyncStream<ServerMirror>.Iterator?
        var last: SilentMode?
        /// The default sink as last read: only its changes are looked at.
        var following = DefaultSinkFollowing()

        init(monitor: SilentModeMonitor, events: AsyncStream<PulseEvent>.Iterator) {
            self.monitor = monitor
            self.events = events
        }

        init(monitor: SilentModeMonitor, mirrors: AsyncStream<ServerMirror>.Iterator) {
            self.monitor = monitor
            self.mirrors = mirrors
        }

        /// The next different state; nil once the server's events (or the manager's
        /// mirrors) end.
        public mutating func next() async -> SilentMode? {
            if mirrors != nil { return await nextFromMirrors() }
            if last == nil { return remember(await read(after: nil) ?? .unknown) }
            while let event = await events?.next() {
                let state: SilentMode
                switch event {
                case .connectionStateChanged(.ready):
                    guard let read = await read(after: nil) else { continue }
                    state = read
                case .connectionStateChanged:
                    following.forget()
                    state = .unknown
                case .subscription(let change):
                    guard following.matters(change) else { continue }
                    // A plug or unplug is first the route's business: the read waits until
                    // the switch it may cause is done, rather than keep the server busy then.
                    try? await Task.sleep(for: ServerFollowing.quietReadDelay)
                    guard let read = await read(after: change) else { continue }
                    state = read
                }
                if state != last { return remember(state) }
            }
            return nil
        }

        /// Beside a manager: the first mirror's state, then each one that differs.
        private mutating func nextFromMirrors() async -> SilentMode? {
            while let mirror = await mirrors?.next() {
                let state = SilentMode(mirror)
                if state != last { return remember(state) }
            }
            return nil
        }

        private mutating func remember(_ state: SilentMode) -> SilentMode {
            last = state
            return state
        }

        /// Silent mode after `change` (nil: read it all); nil when nothing it depends on
        /// changed.
        private mutating func read(after change: SubscriptionEvent?) async -> SilentMode? {
            do {
                guard case .server(let server) = monitor.source else { return nil }
                return try await SilentMode(following.read(after: change, from: server))
            } catch {
                monitor.logger.debug("silent mode: server unreadable", metadata: ["error": "\(error)"])
                return .unknown
            }
        }
    }
}

extension SilentMode {
    /// Silent mode as `reading` shows it; nil when nothing it depends on changed.
    init?(_ reading: DefaultSinkFollowing.Reading) {
        switch reading {
        case .unchanged: return nil
        case .read(let name, let sink): self.init(defaultSinkName: name, sinks: sink.map { [$0] } ?? [])
        }
    }
}
