import ConcurrencySupport

/// The state an ``AudioDeviceManager`` shares between its loop and its callers: the machine,
/// the subscribers, and the loop's queue while it runs. One lock, held only to read or to
/// apply one input to the machine; never across an await.
final class ManagerCore: Sendable {
    struct Shared: Sendable {
        var machine: RouteMachine
        var subscribers = SubscriberList<AudioRouteEvent>()
        /// The server as the loop last read it, and who follows it.
        var mirror = ServerMirror()
        var mirrorSubscribers = SubscriberList<ServerMirror>()
        /// The loop's queue while the manager runs.
        var inputs: InputQueue<EngineInput>?
        /// Fired to end the run (stop(), graceful shutdown).
        var stopSignal: OneShotValue<Void>?
        /// The run that ``AudioDeviceManager/start()`` began: the facade's one task, ended by
        /// ``AudioDeviceManager/stop()``. (A service group's run has none: the group owns it.)
        var runner: Task<Void, any Error>?
        /// Whether the run's end puts back what the manager changed: false for a one-shot run
        /// (``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)``), whose change
        /// is meant to stay. Set back to true as the run ends.
        var restoresOnStop = true
    }

    private let shared: LockedValue<Shared>
    /// How many events a subscriber may fall behind by before the oldest are dropped.
    static let subscriberBuffer = 1024

    init(machine: RouteMachine) {
        shared = LockedValue(Shared(machine: machine))
    }

    /// Reads or changes the shared state, under the lock.
    func withShared<Result: Sendable>(_ body: (inout Shared) -> Result) -> Result {
        shared.withLock { body(&$0) }
    }

    /// Applies one input to the machine and returns its actions, the microphone's mute
    /// brought in line with them (``RouteMachine/followMicrophone(_:)``).
    func machine(_ body: (inout RouteMachine) -> [RouteAction]) -> [RouteAction] {
        shared.withLock { shared in
            let actions = body(&shared.machine)
            return shared.machine.followMicrophone(actions)
        }
    }

    /// A new subscriber: the current state first, then every event from now on.
    func subscribe() -> AsyncStream<AudioRouteEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AudioRouteEvent.self,
                                                            bufferingPolicy: .bufferingNewest(Self.subscriberBuffer))
        shared.withLock { shared in
            shared.subscribers.add(continuation)
            // Under the lock: no event can come between the state and the changes after it.
            continuation.yield(.state(shared.machine.state))
        }
        return stream
    }

    /// A new follower of the server's mirror: the mirror now first, then each new one; a
    /// follower that falls behind gets the newest only.
    func subscribeToMirror() -> AsyncStream<ServerMirror> {
        let (stream, continuation) = AsyncStream.makeStream(of: ServerMirror.self, bufferingPolicy: .bufferingNewest(1))
        shared.withLock { shared in
            shared.mirrorSubscribers.add(continuation)
            continuation.yield(shared.mirror)
        }
        return stream
    }

    /// Hands `mirror` to its followers with the next ``ServerMirror/revision``, unless its
    /// content is what they have.
    func publish(_ mirror: ServerMirror) {
        shared.withLock { shared in
            var next = mirror
            next.revision = shared.mirror.revision
            guard shared.mirror != next else { return }
            next.revision += 1
            shared.mirror = next
            shared.mirrorSubscribers.yield(next)
        }
    }

    /// Hands `event` to every subscriber (``SubscriberList``).
    func publish(_ event: AudioRouteEvent) {
        shared.withLock { $0.subscribers.yield(event) }
    }

    /// Ends every subscriber's stream.
    func finishSubscribers() {
        let (ended, following) = shared.withLock { ($0.subscribers.removeAll(), $0.mirrorSubscribers.removeAll()) }
        for continuation in ended { continuation.finish() }
        for continuation in following { continuation.finish() }
    }
}
