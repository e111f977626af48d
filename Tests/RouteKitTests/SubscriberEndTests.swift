import ConcurrencySupport
import MediaControl
@testable import RouteKit
import Synchronization
import Testing

/// Subscribers that stop listening while events are being published: the publisher must
/// neither deadlock nor keep feeding a stream that ended.
///
/// The deadlock these guard against: an event yielded under the publisher's lock resumes a
/// consumer and so needs that consumer task's status lock; cancelling the consumer holds
/// that status lock and runs the stream's end handler, which took the publisher's lock. The
/// daemon met it as a SIGTERM it never finished (its D-Bus state follower cancelled while the
/// engine announced a route).
@Suite("Subscribers ending while events are published", .serialized, .timeLimit(.minutes(1)))
struct SubscriberEndTests {
    /// How many subscribers come and go while the publisher runs.
    static let rounds = 2_000

    @Test("the manager's events: consumers cancelled mid-publish never block the engine")
    func managerCore() async {
        let core = ManagerCore(machine: RouteMachine(configuration: .init()))
        await Self.churn { core.publish(.devicesChanged([])) } subscribe: { core.subscribe() }
        // Every ended subscriber is forgotten by the next event.
        core.publish(.devicesChanged([]))
        #expect(core.withShared { $0.subscribers.isEmpty })
    }

    @Test("a Broadcast: consumers cancelled mid-send never block the sender")
    func broadcast() async {
        let broadcast = Broadcast<Int>()
        await Self.churn { broadcast.send(1) } subscribe: { broadcast.subscribe() }
    }

    /// Publishes without pause (letting other tasks run now and then: the test pool has as
    /// many threads as cores) while consumers subscribe, take an event, wait for the next one
    /// and are cancelled as they wait; returns once every consumer has ended.
    private static func churn<Element: Sendable>(publish: @escaping @Sendable () -> Void,
                                                 subscribe: @escaping @Sendable () -> AsyncStream<Element>) async {
        let stop = Atomic<Bool>(false)
        let publisher = Task.detached {
            while !stop.load(ordering: .relaxed) {
                for _ in 0..<16 { publish() }
                await Task.yield()
            }
        }
        for _ in 0..<rounds {
            let stream = subscribe()
            let listening = OneShotValue<Void>()
            let consumer = Task.detached {
                var events = stream.makeAsyncIterator()
                _ = await events.next()
                listening.give(())
                while await events.next() != nil {}
            }
            _ = await listening.value()
            consumer.cancel()
            await consumer.value
        }
        stop.store(true, ordering: .relaxed)
        await publisher.value
    }
}
