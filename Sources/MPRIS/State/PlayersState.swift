import ConcurrencySupport
import MediaControl

/// The one owner of ``MPRISPlayers``' state: the table and the event subscribers, behind one
/// lock, so that a change and its announcement are one step. A snapshot taken at any moment
/// is what the events delivered so far add up to.
final class PlayersState: Sendable {
    private struct Core {
        var table = PlayerTable()
        var subscribers = SubscriberList<MediaPlayerEvent>()
        /// The source has closed: no more events, and new subscriptions end at once.
        var ended = false
    }

    private let core = LockedValue(Core())

    /// Applies `input`: emits its events to every subscriber, and returns the rest of its
    /// actions (reads and log lines) for the caller to perform.
    func handle(_ input: PlayerTable.Input) -> [PlayerTable.Action] {
        core.withLock { core in
            guard !core.ended else { return [] }
            // Yielding under the lock is safe: no handler of a stream's end takes it
            // (``SubscriberList``).
            return core.table.handle(input).filter { action in
                guard case .emit(let event) = action else { return true }
                core.subscribers.yield(event)
                return false
            }
        }
    }

    /// The players now.
    var players: [MediaPlayer] {
        core.withLock { $0.table.players }
    }

    /// Whether the connection `owner` owns an MPRIS name now (any thread; the bus's asks
    /// before reading a signal).
    func isOwner(_ owner: String) -> Bool {
        core.withLock { $0.table.isOwner(owner) }
    }

    /// The player `name` now, if it is listed.
    func player(named name: String) -> MediaPlayer? {
        core.withLock { $0.table.player(named: name) }
    }

    /// A new subscriber's stream: every event from now on, until ``end()``.
    func subscribe() -> AsyncStream<MediaPlayerEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: MediaPlayerEvent.self)
        let subscribed = core.withLock { core -> Bool in
            guard !core.ended else { return false }
            core.subscribers.add(continuation)
            return true
        }
        if !subscribed { continuation.finish() }
        return events
    }

    /// The source has closed: every player is announced as vanished, and every subscriber's
    /// stream ends.
    func end() {
        let subscribers = core.withLock { core in
            guard !core.ended else { return [AsyncStream<MediaPlayerEvent>.Continuation]() }
            core.ended = true
            for case .emit(let event) in core.table.removeAll() { core.subscribers.yield(event) }
            return core.subscribers.removeAll()
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
