import MediaControl
import Synchronization

/// The one owner of ``MPRISPlayers``' state: the table and the event subscribers, behind one
/// lock, so that a change and its announcement are one step. A snapshot taken at any moment
/// is what the events delivered so far add up to.
final class PlayersState: Sendable {
    private struct Core {
        var table = PlayerTable()
        var subscribers: [UInt64: AsyncStream<MediaPlayerEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        /// The source has closed: no more events, and new subscriptions end at once.
        var ended = false
    }

    private let core = Mutex(Core())

    /// Applies `input`: emits its events to every subscriber, and returns the rest of its
    /// actions (reads and log lines) for the caller to perform.
    func handle(_ input: PlayerTable.Input) -> [PlayerTable.Action] {
        core.withLock { core in
            guard !core.ended else { return [] }
            // Yielding under the lock is safe because no handler of a stream's end takes it:
            // an ended stream is noticed from yield's answer. (An onTermination handler runs
            // under the cancelled consumer's task-status lock, which a yield waits for.)
            return core.table.handle(input).filter { action in
                guard case .emit(let event) = action else { return true }
                for (id, subscriber) in core.subscribers {
                    if case .terminated = subscriber.yield(event) { core.subscribers.removeValue(forKey: id) }
                }
                return false
            }
        }
    }

    /// The players now.
    var players: [MediaPlayer] {
        core.withLock { $0.table.players }
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
            core.nextSubscriber += 1
            core.subscribers[core.nextSubscriber] = continuation
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
            for case .emit(let event) in core.table.removeAll() {
                for subscriber in core.subscribers.values { subscriber.yield(event) }
            }
            defer { core.subscribers = [:] }
            return Array(core.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
