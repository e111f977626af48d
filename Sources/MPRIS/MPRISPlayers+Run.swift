import ConcurrencySupport
import DBus
import Logging
import Synchronization

extension MPRISPlayers {
    /// Follows the bus: players coming, changing and going, each read as it comes. Returns
    /// when the calling task is cancelled or the connection ends; then every player is
    /// announced as vanished and every event stream ends. Call it once (a second call returns
    /// at once); until it runs, changes wait in the subscriptions.
    public func run() async {
        guard let subscriptions = subscriptions.withLock({ held in defer { held = nil }; return held }) else {
            logger.error("mpris: run() was called again; the players are followed by the first call only")
            return
        }
        // One inbox for the two subscriptions and the reads' answers: the table is applied
        // one input at a time, in the order they arrive here.
        let (inputs, inbox) = AsyncStream.makeStream(of: PlayerTable.Input.self)
        await withDiscardingTaskGroup { group in
            group.addTask {
                // Both subscriptions end with the connection (or when this task is cancelled);
                // the inbox ends when both have.
                await withDiscardingTaskGroup { forwarding in
                    forwarding.addTask {
                        for await signal in subscriptions.owners {
                            if let input = PlayerTable.Input(ownerChange: signal) { inbox.yield(input) }
                        }
                    }
                    forwarding.addTask {
                        for await signal in subscriptions.properties {
                            if let input = PlayerTable.Input(propertyChange: signal) { inbox.yield(input) }
                        }
                    }
                }
                inbox.finish()
            }
            for await input in inputs {
                for read in handle(input) {
                    group.addTask { inbox.yield(await self.perform(read)) }
                }
            }
            // Reads still under way have nobody to answer.
            group.cancelAll()
        }
        state.end()
        logger.debug("mpris: no longer following the players on \(connection.address)")
    }
}
