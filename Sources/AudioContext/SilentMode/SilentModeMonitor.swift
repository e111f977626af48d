import Logging
import PulseAudio
import RouteKit

/// Follows silent mode on a server: reads it now, and gives every change from then on.
///
/// It listens to the server's one event stream and reads the defaults and the sinks again
/// after each event that can change the answer (the server's defaults, a sink appearing or
/// going, the default sink changing); the decision itself is ``SilentMode/init(defaultSinkName:sinks:)``.
public struct SilentModeMonitor: Sendable {
    let server: any AudioServer
    let logger: Logger

    /// A monitor of `server`; `logger` hears of reads that fail.
    public init(server: any AudioServer, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    /// Silent mode now. Throws `PulseError` when the server cannot be read.
    public func current() async throws -> SilentMode {
        var following = DefaultSinkFollowing()
        return try await SilentMode(following.read(after: nil, from: server)) ?? .unknown
    }

    /// Silent mode now, then each change: the first element is the state when iteration
    /// starts; after it, only states that differ from the one before. The sequence ends when
    /// the server's connection is shut down or the iterating task is cancelled.
    public func changes() -> SilentModeChanges {
        SilentModeChanges(monitor: self)
    }
}

/// Silent mode's changes: see ``SilentModeMonitor/changes()``.
public struct SilentModeChanges: AsyncSequence, Sendable {
    /// What the sequence gives.
    public typealias Element = SilentMode
    /// It never throws: a failed read is ``SilentMode/unknown`` until the next event.
    public typealias Failure = Never

    let monitor: SilentModeMonitor

    /// An iterator that subscribes to the server's events before its first read.
    public func makeAsyncIterator() -> Iterator {
        Iterator(monitor: monitor, events: monitor.server.events().makeAsyncIterator())
    }

    /// Reads on demand: each `next()` waits for events until the state differs from the
    /// last one given. No task of its own: the reads run in the iterating task.
    public struct Iterator: AsyncIteratorProtocol {
        let monitor: SilentModeMonitor
        var events: AsyncStream<PulseEvent>.Iterator
        var last: SilentMode?
        /// The default sink as last read: only its changes are looked at.
        var following = DefaultSinkFollowing()

        /// The next different state; nil once the server's events end.
        public mutating func next() async -> SilentMode? {
            if last == nil { return remember(await read(after: nil) ?? .unknown) }
            while let event = await events.next() {
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

        private mutating func remember(_ state: SilentMode) -> SilentMode {
            last = state
            return state
        }

        /// Silent mode after `change` (nil: read it all); nil when nothing it depends on
        /// changed.
        private mutating func read(after change: SubscriptionEvent?) async -> SilentMode? {
            do {
                return try await SilentMode(following.read(after: change, from: monitor.server))
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
