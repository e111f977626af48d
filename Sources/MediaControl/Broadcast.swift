import ConcurrencySupport
import RouteKit

/// Values sent to every subscriber, each getting every value in the order sent: how the
/// guard, in-process players and the daemon's context hand out their events.
package final class Broadcast<Element: Sendable>: Sendable {
    private let subscribers = LockedValue(SubscriberList<Element>())

    /// No subscribers yet.
    package init() {}

    /// Every value sent from now on, until ``finish()``.
    package func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        subscribers.withLock { $0.add(continuation) }
        return stream
    }

    /// Sends `element` to every subscriber (an ended stream is forgotten: ``SubscriberList``).
    package func send(_ element: Element) {
        subscribers.withLock { $0.yield(element) }
    }

    /// Ends every subscriber's stream; later subscribers get the values sent after.
    package func finish() {
        let ended = subscribers.withLock { $0.removeAll() }
        for continuation in ended { continuation.finish() }
    }
}
