import ConcurrencySupport
import Logging
import PulseAudio

/// Finds calls in a server's streams, for softphones that do not tell RouteKit about their
/// calls (baresip, linphone, a browser call): a playback and a capture stream of one
/// application, with `media.role=phone` or as ``CallDetectionRule`` says, that last longer
/// than a probe. Decisions are ``CallDetectionMachine``'s; this type reads the server and
/// tells what the machine decided.
///
/// ``run()`` follows the server until its task is cancelled, then ends every call it had
/// started. Beside an ``AudioDeviceManager`` made with `mirrorsStreams`, it follows the
/// manager's mirror and reads nothing of its own (``init(manager:rule:logger:)``); alone, it
/// reads each stream once per burst of its events on its server, which must hear about sink
/// inputs and source outputs (a `PulseClient` subscribed to `.streams` or `.all`). It wakes
/// for nothing else than an event, a mirror or the machine's next deadline.
public final class StreamCallDetector: Sendable {
    /// Where the streams come from.
    enum Source: Sendable {
        /// Read from the server's events.
        case server(any AudioServer)
        /// The manager's mirror.
        case manager(AudioDeviceManager)
    }

    let source: Source
    private let logger: Logger
    private let shared: LockedValue<Shared>

    private struct Shared {
        var rule: CallDetectionRule
        var calls: [DetectedCall] = []
        var subscribers = SubscriberList<DetectedCallEvent>()
        var inputs: InputQueue<CallDetectionInput>?
        var isFinished = false
    }

    /// A detector over `server`, deciding by `rule`: it reads the streams itself.
    public init(server: any AudioServer, rule: CallDetectionRule = CallDetectionRule(),
                logger: Logger = Logger(label: "routekit.calls.detection")) {
        self.source = .server(server)
        self.logger = logger
        self.shared = LockedValue(Shared(rule: rule))
    }

    /// A detector over the streams `manager` mirrors (it must be made with `mirrorsStreams`:
    /// otherwise the mirror carries none, and nothing is detected), deciding by `rule`. It
    /// asks the server nothing, and sees a stream once the manager's loop has read it, after
    /// the switch its event may have caused.
    public init(manager: AudioDeviceManager, rule: CallDetectionRule = CallDetectionRule(),
                logger: Logger = Logger(label: "routekit.calls.detection")) {
        self.source = .manager(manager)
        self.logger = logger
        self.shared = LockedValue(Shared(rule: rule))
    }

    /// The rule in force.
    public var rule: CallDetectionRule { shared.withLock { $0.rule } }

    /// The calls in progress, oldest first.
    public var calls: [DetectedCall] { shared.withLock { $0.calls } }

    /// The calls in progress (as `.started`), then every change, until the detector stops
    /// (after `.ended` for each call still in progress).
    public func events() -> AsyncStream<DetectedCallEvent> {
        let (stream, continuation) = AsyncStream<DetectedCallEvent>.makeStream()
        let finished = shared.withLock { shared in
            for call in shared.calls { continuation.yield(.started(call)) }
            if !shared.isFinished { shared.subscribers.add(continuation) }
            return shared.isFinished
        }
        if finished { continuation.finish() }
        return stream
    }

    /// Changes the rule; it applies at once to the streams there are.
    public func update(_ rule: CallDetectionRule) {
        let queue = shared.withLock { shared in
            shared.rule = rule
            return shared.inputs
        }
        queue?.push(.rule(rule))
    }

    /// Follows the server until the calling task is cancelled; then ends the calls in progress.
    public func run() async {
        let queue = InputQueue<CallDetectionInput>()
        let rule = shared.withLock { shared in
            shared.inputs = queue
            return shared.rule
        }
        var machine = CallDetectionMachine(rule: rule)
        var order = ReadingOrder<CallStream.Key>()
        await withDiscardingTaskGroup { group in
            switch source {
            case .server(let server):
                group.addTask { await self.followServer(server, into: queue) }
            case .manager(let manager):
                let mirrors = manager.mirrors()
                group.addTask { await Self.followMirrors(mirrors, into: queue) }
            }
            while !Task.isCancelled {
                guard let batch = await queue.nextBatch(until: machine.deadline) else { break }
                let now = ContinuousClock.now
                var actions: [CallDetectionAction] = []
                for input in batch {
                    logger.trace("call detection input: \(input)")
                    actions += input.apply(to: &machine, order: &order, now: now)
                }
                actions += machine.tick(now: now)
                publish(actions, calls: machine.ongoingCalls)
            }
            group.cancelAll()
        }
        queue.finish()
        publish(machine.stopping(), calls: [])
        let ended = shared.withLock { shared in
            shared.inputs = nil
            shared.isFinished = true
            return shared.subscribers.removeAll()
        }
        for continuation in ended { continuation.finish() }
    }

    /// Tells `actions` and keeps `calls` as the state, in one step so that a new subscriber
    /// sees each call exactly once.
    private func publish(_ actions: [CallDetectionAction], calls: [DetectedCall]) {
        guard !actions.isEmpty else { return }
        for action in actions { logger.info("call detection: \(action.event)") }
        shared.withLock { shared in
            shared.calls = calls
            for action in actions { shared.subscribers.yield(action.event) }
        }
    }
}
