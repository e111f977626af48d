import ConcurrencySupport
import Logging
import PulseAudio

/// The engine's one loop: it takes what is queued at each wake (events and commands) as a
/// batch, brings the device state up to date with one round of lookups, hands the result to
/// the machine, and performs the machine's actions. Nothing else changes the route.
///
/// An event's way from libpulse to a switch: libpulse's callback → the queue → this batch →
/// lookups sent together → ``DeviceTracker`` → ``RouteMachine`` → ``RouteActionPerformer`` →
/// set-default-sink. No other hop.
struct EngineLoop: Sendable {
    let core: ManagerCore
    let queue: InputQueue<EngineInput>
    let server: any AudioServer
    let performer: RouteActionPerformer
    let timings: TimingRecorder
    let logger: Logger
    var tracker: DeviceTracker
    /// Where the standing fallback is armed after every turn (PulseAudio, system scope).
    let fallback: (any FallbackArming)?

    /// When to try reading the whole server again, after a read that failed.
    private var resyncDue: ContinuousClock.Instant?
    /// Callers waiting for the machine to settle.
    private var tickets: [CommandTicket] = []
    /// The instants of the batch being handled, for ``SwitchTiming``.
    private var clock = BatchClock()
    /// The streams that followed the route so far (system scope), on this connection.
    private var followers = Followers()
    private var isConnected = true
    /// Whether the tracker read the server or the connection changed since the mirror was
    /// last handed on (``ServerMirror``): a batch of commands or streams alone changes nothing.
    private var mirrorMayHaveChanged = false
    /// Inputs taken while a batch's lookups were under way, for the next turn.
    private var carried: [EngineInput] = []
    /// The queue ended while inputs were being carried.
    private var isQueueOver = false
    /// Whether clients coming and going are followed by a reading of the default on a new
    /// connection (pipewire-pulse, system scope; ``MissedDefaultCheck``).
    let checksMissedDefaults: Bool
    /// When that reading is due, if clients came or went since the last one.
    private var missedDefaultCheck = MissedDefaultCheck()
    /// A lookup of this turn failed: what it was to read is not in the mirror.
    private var followFailed = false
    /// A reading is out: its answer comes back as an input, and no other starts meanwhile.
    private var isReadingOut = false
    /// A change of the defaults came while the reading was out: this connection hears of
    /// it anyway, and the reading may predate it.
    private var defaultsChangedDuringReading = false
    /// The streams for the mirror, when the manager mirrors them (``ServerMirror/streams``).
    private var streams: StreamTracker?
    /// Followers waiting for sinks to be read again (``EngineInput/readAgain(sinks:defaults:_:)``).
    private var rereads = Rereads()

    init(core: ManagerCore, queue: InputQueue<EngineInput>, server: any AudioServer, timings: TimingRecorder,
         performer: RouteActionPerformer, logger: Logger, tracker: DeviceTracker, serverIsPipeWire: Bool,
         fallback: (any FallbackArming)? = nil, mirrorsStreams: Bool = false) {
        self.core = core
        streams = mirrorsStreams ? StreamTracker() : nil
        self.fallback = fallback
        // A missed default matters where the engine routes by the defaults.
        if case .system = performer.scope { checksMissedDefaults = serverIsPipeWire } else { checksMissedDefaults = false }
        self.timings = timings
        self.queue = queue
        self.server = server
        self.performer = performer
        self.logger = logger
        self.tracker = tracker
    }

    /// A reading made for this loop before it ran (the start's check) was the client at
    /// `index`: its coming and going starts no check.
    mutating func noteOwnReading(by index: UInt32) {
        missedDefaultCheck.readBy(client: index)
    }

    /// Performs the first decision's actions, then runs until the queue ends, the server's
    /// connection is shut down, or the task is cancelled.
    mutating func run(first actions: [RouteAction]) async {
        await perform(actions)
        // The loop's readings run here, their answers coming back through the queue; those
        // still out when the loop ends are cancelled.
        await withDiscardingTaskGroup { readings in
            startStreamReadings(in: &readings, all: true)
            while !Task.isCancelled {
                // The check starts only when connected and no reading is out; until then its
                // time, maybe past, is no reason to wake (a past one would spin the loop).
                let checkDue = isReadingOut || !isConnected ? nil : missedDefaultCheck.due
                let deadline = [core.withShared { $0.machine.deadline }, resyncDue, checkDue].compactMap { $0 }.min()
                let batch: [EngineInput]
                if !carried.isEmpty {
                    batch = carried
                    carried = []
                } else {
                    guard !isQueueOver, let next = await queue.nextBatch(until: deadline) else { break }
                    batch = next
                }
                guard !Task.isCancelled else {
                    // Stopping: a batch taken as the stop came is not acted on.
                    settleUnhandled(batch)
                    break
                }
                logger.trace("batch", metadata: ["inputs": "\(batch.count)"])
                if await handle(batch, readings: &readings) == false { break }
            }
            readings.cancelAll()
        }
        for ticket in tickets { ticket.punch() }
        tickets.removeAll()
        settleUnhandled(carried)
        carried.removeAll()
        rereads.answerAll(with: core.withShared { $0.mirror })
    }

    /// Inputs the loop will not act on (it is ending): their commands still change what the
    /// next run keeps, and their callers are let go.
    private func settleUnhandled(_ inputs: [EngineInput]) {
        for input in inputs {
            switch input {
            case .command(let command, let ticket):
                let answer = core.machine { $0.handle(command, now: .now) }
                if let refusal = answer.refusal { ticket.refuse(refusal) }
                ticket.punch()
            case .readAgain(_, _, let answer):
                answer.give(core.withShared { $0.mirror })
            default:
                continue
            }
        }
    }

    /// One wake's work. False when the loop must end.
    private mutating func handle(_ batch: [EngineInput], readings: inout DiscardingTaskGroup) async -> Bool {
        var subscriptions: [SubscriptionEvent] = []
        var streamEvents: [SubscriptionEvent] = []
        var commands: [(RouteCommand, CommandTicket)] = []
        var becameReady = false
        var reading: NewConnectionReading??
        var streamAnswers: [StreamTracker.Answer] = []
        // The connection's states other than ready, in the order they came.
        var connectionStates: [ConnectionState] = []
        clock = BatchClock()
        for input in batch {
            if case .server(_, let received) = input, clock.received == nil { clock.received = received }
            switch input {
            case .server(.subscription(let event), _):
                if event.facility == .client {
                    if checksMissedDefaults { missedDefaultCheck.clientEvent(event, now: clock.woke) }
                } else if event.facility == .sinkInput || event.facility == .sourceOutput {
                    streamEvents.append(event)
                } else {
                    if event.facility == .server, isReadingOut { defaultsChangedDuringReading = true }
                    subscriptions.append(event)
                }
            case .newConnectionReading(let answer):
                reading = .some(answer)
            case .streamsRead(let answer):
                streamAnswers.append(answer)
            case .server(.connectionStateChanged(let state), _):
                if state == .ready {
                    becameReady = true
                    // What came before the connection was back belongs to the old one.
                    subscriptions.removeAll()
                    streamEvents.removeAll()
                } else {
                    // Each is told (every attempt of a reconnection); the last one decides
                    // whether the batch ends ready.
                    connectionStates.append(state)
                    becameReady = false
                }
            case .serverGone:
                // No turn comes after this one: the batch's commands change what the next run
                // keeps, and their callers are let go.
                settleUnhandled(batch)
                return false
            case .command(let command, let ticket):
                commands.append((command, ticket))
            case .readAgain(let names, let defaults, let answer):
                // Read as if each sink (and the server) had announced a change: the lookups go
                // out now, after the follower's request was answered.
                let indices = rereads.add(names, answer, among: tracker.state.sinks)
                guard isConnected else { continue }
                subscriptions += indices.map { SubscriptionEvent(facility: .sink, kind: .change, index: $0) }
                if defaults { subscriptions.append(SubscriptionEvent(facility: .server, kind: .change, index: 0)) }
            }
        }
        followFailed = false
        var actions: [RouteAction] = []
        let now = ContinuousClock.now
        if !connectionStates.isEmpty {
            mirrorMayHaveChanged = true
            isConnected = false
            resyncDue = nil
            _ = streams?.connectionChanged()
            for state in connectionStates {
                actions += core.machine { $0.connectionChanged(to: state) }
            }
        }
        var resynchronized = false
        if becameReady || (resyncDue.map { now >= $0 } ?? false) {
            mirrorMayHaveChanged = true
            actions += await resynchronize()
            resynchronized = isConnected
        } else if isConnected, !subscriptions.isEmpty {
            mirrorMayHaveChanged = true
            // Outputs first: a new or changed source (a monitor, a microphone) is looked up
            // only after the decision its sink allows, so that it never delays a switch; the
            // input follows a moment later.
            let isInputLookup: (SubscriptionEvent) -> Bool = { $0.facility == .source && $0.kind != .remove }
            let outputs = subscriptions.filter { !isInputLookup($0) }
            let inputs = subscriptions.filter(isInputLookup)
            if !outputs.isEmpty, !inputs.isEmpty {
                await perform(await follow(outputs))
                actions += await follow(inputs)
            } else {
                actions += await follow(subscriptions)
            }
        }
        if let reading {
            actions += readingAnswered(reading)
        }
        if isConnected, !isReadingOut, missedDefaultCheck.isDue(now: .now) {
            startMissedDefaultReading(in: &readings)
        }
        for (command, ticket) in commands {
            let answer = core.machine { $0.handle(command, now: ContinuousClock.now) }
            if let refusal = answer.refusal { ticket.refuse(refusal) }
            actions += answer
            tickets.append(ticket)
        }
        if isConnected, core.withShared({ $0.machine.isConfirmationOverdue(now: .now) }) {
            actions += core.machine { $0.confirmationRechecked() }
            await perform(actions)
            actions = await readDefaultsOnRenewedConnection()
        }
        actions += core.machine { $0.deadlinePassed(now: ContinuousClock.now) }
        await perform(actions)
        armStandingFallback()
        // The streams' readings start only now, behind the turn's requests. Everything is
        // read again on a new connection, or after a failed reading of it with the next
        // stream event: never at once after a failure, which could repeat without pause.
        if streams != nil {
            for answer in streamAnswers {
                if streams?.apply(answer) == true { mirrorMayHaveChanged = true }
            }
            var startsLane = false
            if isConnected, !streamEvents.isEmpty, let taken = streams?.take(streamEvents) {
                if taken.changed { mirrorMayHaveChanged = true }
                startsLane = taken.startReading
            }
            if isConnected {
                startStreamReadings(in: &readings, all: resynchronized || !streamEvents.isEmpty, lane: startsLane)
            }
        }
        // After the switch: followers of the mirror compute from it, never ahead of routing.
        // Only a batch that read the server, changed the connection or read streams can have
        // changed it.
        if mirrorMayHaveChanged {
            mirrorMayHaveChanged = false
            var mirror = tracker.mirror(isConnected: isConnected)
            mirror.streams = streams?.published
            core.publish(mirror)
        }
        answerRereads()
        if isConnected, !streamEvents.isEmpty { await followStreams(streamEvents) }
        if core.withShared({ $0.machine.isSettled }) {
            for ticket in tickets { ticket.punch() }
            tickets.removeAll()
        }
        return true
    }

    /// Answers the followers whose sinks this turn read again, with the mirror it handed on
    /// (or the mirror as it is, disconnected: nothing can be read). A follower whose sink had
    /// a lookup fail, or has an event waiting for the next turn (whose answer this turn's may
    /// have overtaken), waits for the turn that reads it.
    private mutating func answerRereads() {
        guard !rereads.isEmpty else { return }
        let mirror = core.withShared { $0.mirror }
        guard isConnected else { return rereads.answerAll(with: mirror) }
        guard !followFailed, resyncDue == nil else { return }
        var waiting = Set<UInt32>()
        for case .server(.subscription(let event), _) in carried where event.facility == .sink { waiting.insert(event.index) }
        rereads.answer(with: mirror, exceptFor: waiting)
    }

    /// Starts the stream readings the mirror needs (``StreamTracker``): when `all`, every
    /// stream, if they were not read on this connection yet and no such reading is out; and
    /// the lane's one reader, when `startsLane` says none runs. Their answers come back
    /// through the queue.
    private mutating func startStreamReadings(in readings: inout DiscardingTaskGroup, all: Bool, lane startsLane: Bool = false) {
        guard streams != nil else { return }
        let server = self.server
        let queue = self.queue
        if all, streams?.needsReadingAll == true, let (generation, place) = streams?.startAll() {
            readings.addTask {
                queue.push(.streamsRead(await StreamTracker.readAll(generation: generation, place: place, on: server)))
            }
        }
        if startsLane, let lane = streams?.lane {
            readings.addTask {
                // One reading at a time; what is announced meanwhile is read right after it.
                while true {
                    let due = lane.next()
                    if due.isEmpty { break }
                    queue.push(.streamsRead(await StreamTracker.read(due, on: server)))
                }
            }
        }
    }

    /// Arms the standing fallback with what the machine would take if the route's sink went
    /// now (``RouteMachine/standingFallback(now:)``), or disarms it; after every turn, once the
    /// turn's requests are out. A fallback whose port is not the one its sink has active is
    /// not armed: the machine would set the port first.
    private func armStandingFallback() {
        guard let fallback else { return }
        guard isConnected, let plan = core.withShared({ $0.machine.standingFallback(now: .now) }) else {
            return fallback.arm(nil)
        }
        var routeIndex: UInt32?
        var portInPlace = plan.target.output?.port == nil
        for (index, sink) in tracker.state.sinks {
            if sink.name == plan.routeSink { routeIndex = index }
            if sink.name == plan.targetSink, let port = plan.target.output?.port { portInPlace = sink.activePortName == port }
        }
        fallback.arm(routeIndex.flatMap { portInPlace ? StandingFallback(sinkIndex: $0, fallbackSink: plan.targetSink) : nil })
    }

    /// A switch's confirmation is late (its recheck) or overdue (before the machine judges
    /// it): the connection is renewed and the defaults read on the new one. A pipewire-pulse
    /// connection can miss a change of the default for good: PipeWire passes a change of
    /// WirePlumber's "default" metadata only to the client binding it while any bind waits for
    /// WirePlumber's answer (Docs/Reliability.md, "The PipeWire default that never reaches
    /// long-lived connections").
    /// A renewal that fails or takes longer than ``renewalTimeLimit`` changes nothing.
    private mutating func readDefaultsOnRenewedConnection() async -> [RouteAction] {
        let server = self.server
        let info = await untilDeadline(.now + Self.renewalTimeLimit) {
            try await server.renewConnection()
            return try await server.serverInfo()
        }
        guard let info else {
            logger.debug("could not renew the server's connection to read its defaults")
            return []
        }
        let stale = (sink: tracker.defaultSinkName, source: tracker.defaultSourceName)
        let change = tracker.takeDefaults(of: info)
        mirrorMayHaveChanged = true
        guard !change.isEmpty else { return [] }
        logger.notice("the server's connection had missed a change of the default; read again on a new one",
                      metadata: ["was": "\(stale.sink ?? "none")", "is": "\(info.defaultSinkName ?? "none")"])
        return decide(on: change)
    }

    /// Clients came and went a moment ago: the default is read on a new connection, whose
    /// bind of PipeWire's "default" metadata gets the values in force. The reading runs beside
    /// the loop, which goes on acting on every event, and its answer comes back as an input
    /// (``readingAnswered(_:)``); the connection closes once the server has answered it (a
    /// connection given up earlier could cost every client the default's changes:
    /// `ConnectionCore+Settling.swift`).
    private mutating func startMissedDefaultReading(in readings: inout DiscardingTaskGroup) {
        missedDefaultCheck.started()
        isReadingOut = true
        defaultsChangedDuringReading = false
        let server = self.server, queue = self.queue
        readings.addTask {
            queue.push(.newConnectionReading(try? await server.serverInfoOnNewConnection()))
        }
    }

    /// The reading on a new connection answered. A default that differs from this
    /// connection's view, with no change of the defaults heard meanwhile (which would say so
    /// itself), is handed to the machine as one seen elsewhere: it renews this connection and
    /// decides on what that reads. The reading's own client is remembered, so that its coming
    /// and going starts no other check.
    private mutating func readingAnswered(_ reading: NewConnectionReading?) -> [RouteAction] {
        isReadingOut = false
        guard let reading else {
            logger.debug("could not read the default on a new connection")
            return []
        }
        if let client = reading.clientIndex { missedDefaultCheck.readBy(client: client) }
        guard isConnected, !defaultsChangedDuringReading, let sink = reading.info.defaultSinkName,
              sink != tracker.defaultSinkName else { return [] }
        logger.debug("a new connection reads another default sink", metadata: ["here": "\(tracker.defaultSinkName ?? "none")",
                                                                              "there": "\(sink)"])
        return core.machine { $0.handle(.defaultSinkSeenElsewhere(sink), now: ContinuousClock.now) }
    }

    /// How long a renewal may take before the machine judges the switch on what it has.
    static let renewalTimeLimit = Duration.seconds(1)

    /// After (re)connecting: reads everything again and decides afresh. A read that fails
    /// with the connection up is tried again shortly; one that fails because the connection
    /// went waits for the next ready.
    private mutating func resynchronize() async -> [RouteAction] {
        do {
            tracker = try await DeviceTracker.read(from: server)
            followers = Followers()  // a new connection's indexes are new
            _ = streams?.connectionChanged()
            resyncDue = nil
            isConnected = true
            let tracker = self.tracker
            return core.machine {
                $0.connectionRestored(devices: tracker.devices, defaultSink: tracker.defaultSinkName,
                                      defaultSource: tracker.defaultSourceName, now: ContinuousClock.now)
            }
        } catch let error as PulseError where error.code == .connectionTerminated || error.code == .badState {
            logger.debug("resynchronization cut short: disconnected")
            resyncDue = nil
            return []
        } catch {
            logger.warning("could not read the server after reconnecting; trying again", metadata: ["error": "\(error)"])
            resyncDue = ContinuousClock.now + .milliseconds(200)
            return []
        }
    }

    /// Brings the devices up to date with a batch of events and tells the machine.
    private mutating func follow(_ events: [SubscriptionEvent]) async -> [RouteAction] {
        var (change, round) = tracker.begin(events)
        var actions: [RouteAction] = []
        if !round.isEmpty {
            let answers: Result<DeviceTracker.LookupAnswers, any Error>
            if round.asksForDefaults {
                // The removal that moved the default arrives while its lookups are under way:
                // it is acted on as it comes, not after them.
                answers = await lookUpWatchingRemovals(&round, change: &change, actions: &actions)
            } else {
                answers = await Self.answers(to: round, from: server)
            }
            switch answers {
            case .success(let answers):
                change.devices.merge(tracker.finish(round, answers: answers).devices)
                logger.trace("looked up", metadata: ["defaultSink": "\(tracker.defaultSinkName ?? "none")",
                                                     "changed": "\(!change.isEmpty)"])
            case .failure(let error as PulseError) where error.code == .connectionTerminated || error.code == .badState:
                followFailed = true
                return actions  // the resynchronization after reconnecting covers it
            case .failure(is CancellationError):
                followFailed = true
                return actions  // stopping
            case .failure(let error):
                logger.warning("could not follow a change; reading the server again", metadata: ["error": "\(error)"])
                followFailed = true
                resyncDue = ContinuousClock.now
                return actions
            }
        }
        clock.lookedUp = .now
        actions += muteUndone()
        guard !change.isEmpty else { return actions }
        actions += decide(on: change)
        clock.decided = .now
        return actions
    }

    /// Sources the machine muted that the server shows live again are muted again: a session
    /// manager restoring its saved state onto a source that just appeared (WirePlumber 0.5
    /// does), or a request a suspended node dropped. The mute is the call's until it is lifted.
    private func muteUndone() -> [RouteAction] {
        let muted = core.withShared { $0.machine.mutedSources }
        guard !muted.isEmpty else { return [] }
        let live = Set(tracker.state.sources.values.filter { muted.contains($0.name) && !$0.isMuted }.map(\.name))
        guard !live.isEmpty else { return [] }
        logger.debug("muted again", metadata: ["sources": "\(live.sorted())"])
        return core.machine { $0.microphoneMuteUndone(live) }
    }

    /// Tells the machine what `change` did to the devices.
    private mutating func decide(on change: DeviceTracker.Change) -> [RouteAction] {
        let tracker = self.tracker
        return core.machine {
            $0.update(devices: tracker.devices, defaultSink: tracker.defaultSinkName, defaultSource: tracker.defaultSourceName,
                      added: change.devices.added, removed: change.devices.removed, now: ContinuousClock.now)
        }
    }

    /// Decides on `change` (removals, and what came with them) without waiting for the
    /// lookups under way, and performs the actions at once; both are then empty.
    private mutating func actOnRemovals(_ change: inout DeviceTracker.Change, actions: inout [RouteAction]) async {
        logger.trace("removal acted on before the lookups' answers",
                     metadata: ["removed": "\(change.devices.removed.map(\.rawValue).sorted())"])
        clock.lookedUp = .now
        actions += decide(on: change)
        clock.decided = .now
        change = DeviceTracker.Change()
        await perform(actions)
        actions = []
    }

    private static func answers(to round: DeviceTracker.LookupRound, from server: any AudioServer) async
        -> Result<DeviceTracker.LookupAnswers, any Error> {
        do {
            return .success(try await DeviceTracker.lookUp(round, on: server))
        } catch {
            return .failure(error)
        }
    }

    /// Awaits `round`'s answers while taking what else arrives. Removals among it are applied
    /// at once and decided on, their actions performed (a route's device going is a switch
    /// that must not wait for the lookups); everything taken is handled, in order, by the
    /// loop's next turn. On return `change` holds what is still to be decided on.
    private mutating func lookUpWatchingRemovals(_ round: inout DeviceTracker.LookupRound, change: inout DeviceTracker.Change,
                                                 actions: inout [RouteAction]) async -> Result<DeviceTracker.LookupAnswers, any Error> {
        enum Arrival: Sendable {
            case answers(Result<DeviceTracker.LookupAnswers, any Error>)
            case batch([EngineInput]?)
        }
        let server = self.server, queue = self.queue, lookups = round
        return await withTaskGroup(of: Arrival.self) { group in
            group.addTask { .answers(await Self.answers(to: lookups, from: server)) }
            group.addTask { .batch(await queue.nextBatch()) }
            if !change.devices.removed.isEmpty {
                // The batch itself removed a device (the default's, as the server moved it).
                await actOnRemovals(&change, actions: &actions)
            }
            var answers: Result<DeviceTracker.LookupAnswers, any Error>?
            while answers == nil, let arrival = await group.next() {
                switch arrival {
                case .answers(let result):
                    answers = result
                case .batch(nil):
                    isQueueOver = true
                case .batch(let batch?):
                    carried += batch
                    // A batch from another connection, or taken as the loop stops, is only
                    // carried: the loop's next turn handles it.
                    guard !Task.isCancelled, !batch.contains(where: \.isConnectionChange) else { break }
                    let events = batch.compactMap { input -> SubscriptionEvent? in
                        guard case .server(.subscription(let event), _) = input else { return nil }
                        return event
                    }
                    let removed = tracker.applyRemovals(events, during: &round)
                    if !removed.isEmpty {
                        // What the first batch removed is decided on with it.
                        change.devices.merge(removed.devices)
                        await actOnRemovals(&change, actions: &actions)
                    }
                    group.addTask { .batch(await queue.nextBatch()) }
                }
            }
            group.cancelAll()
            while let arrival = await group.next() {
                if case .batch(let batch?) = arrival { carried += batch }
            }
            return answers ?? .failure(CancellationError())
        }
    }

    /// Performs actions in order; what the performer reports goes back to the machine, whose
    /// answers are performed in turn. Events decided before a switch are published once its
    /// request is answered, still in order: a subscriber woken first (a daemon's line, its
    /// D-Bus properties, media pausing) would compete with the switch for the CPU.
    private mutating func perform(_ initial: [RouteAction]) async {
        var actions = initial[...]
        var held: [AudioRouteEvent] = []
        defer { publish(&held) }
        while !Task.isCancelled, let action = actions.popFirst() {
            // A switch leaves the route unsettled: no order for the route it leaves stands
            // while it is under way (armed again after the turn, from what is settled then).
            if action.isSwitchRequest { fallback?.arm(nil) }
            switch action {
            case .emit(let event):
                logger.debug("\(event)")
                switch event {
                case .switchFailed(_, let failure), .microphoneFailed(_, let failure):
                    for ticket in tickets { ticket.note(failure) }
                default: break
                }
                held.append(event)
                if !actions.contains(where: \.isSwitchRequest) { publish(&held) }
            case .selectProfile(let card, let profile, let device):
                let outcome = await performer.selectProfile(profile, card: card, tracker: tracker)
                record(outcome.recorded)
                if let failure = outcome.failure {
                    actions += core.machine { $0.switchFailed(device, failure, now: ContinuousClock.now) }
                }
            case .route(let plan):
                logger.trace("routing", metadata: ["device": "\(plan.device.id)"])
                let outcome = await performer.route(plan, tracker: tracker)
                if outcome.failure == nil { noteTiming() }
                // What it changed is recorded even when a later step failed: it is put back at stop.
                record(outcome.recorded)
                if let failure = outcome.failure {
                    actions += core.machine { $0.switchFailed(plan.device.id, failure, now: ContinuousClock.now) }
                } else {
                    if case .application = performer.scope {
                        actions += core.machine { $0.applicationRouteApplied(plan.device, now: ContinuousClock.now) }
                    }
                }
            case .moveStrays(let fromSinks, let toSink, let fromSources, let toSource):
                followers = await performer.moveStrays(fromSinks: fromSinks, toSink: toSink, fromSources: fromSources,
                                                      toSource: toSource, followers: followers, tracker: tracker)
            case .restoreProfile(let card, let profile, let selected):
                await performer.restoreProfile(card: card, profile: profile, ifStill: selected, tracker: tracker)
            case .restoreDefaultSource(let source):
                await performer.restoreDefaultSource(source)
            case .muteSource(let source, let muted):
                do {
                    try await performer.muteSource(source, muted: muted)
                } catch {
                    actions += core.machine { $0.microphoneMuteFailed(source, muting: muted, error, now: ContinuousClock.now) }
                }
            case .muteCaptureStreams(let muted):
                if case .application(let selector) = performer.scope {
                    await performer.muteCaptureStreams(selector, muted: muted)
                }
            case .readDefaultsAfresh:
                actions += await readDefaultsOnRenewedConnection()
            case .refuse:
                break  // told to the command's ticket as it was decided
            }
            if case .emit = action {} else { publish(&held) }
        }
    }

    /// Publishes the events held back, in order.
    private func publish(_ held: inout [AudioRouteEvent]) {
        for event in held { core.publish(event) }
        held.removeAll()
    }

    /// A route request of an event-driven batch was answered: where its time went.
    private mutating func noteTiming() {
        guard let received = clock.received, let lookedUp = clock.lookedUp, let decided = clock.decided else { return }
        timings.record(SwitchTiming(received: received, queueHop: clock.woke - received, lookups: lookedUp - clock.woke,
                                    decision: decided - lookedUp, request: .now - decided))
        clock.received = nil
    }

    private func record(_ changes: [RecordedChange]) {
        guard !changes.isEmpty else { return }
        core.withShared { shared in
            for change in changes { shared.machine.record(change) }
        }
    }

    /// Application scope: selected streams that start or move go to the route; streams that
    /// end leave the ledger.
    private mutating func followStreams(_ events: [SubscriptionEvent]) async {
        for event in events.latestPerObject() {
            if event.kind == .remove {
                // pipewire-pulse announces a stream it relinks as removed and new again: the
                // ledger forgets a stream it holds only once the server no longer has it.
                let output = event.facility == .sinkInput
                let ledger = core.withShared { $0.machine.ledger }
                guard (output ? ledger.playback[event.index] : ledger.recording[event.index]) != nil else { continue }
                let stillThere = output ? (try? await server.sinkInput(at: event.index)) != nil
                    : (try? await server.sourceOutput(at: event.index)) != nil
                if !stillThere {
                    logger.debug("moved stream gone", metadata: ["index": "\(event.index)", "output": "\(output)"])
                    record([.streamGone(index: event.index, output: output)])
                }
                continue
            }
            guard case .application(let selector) = performer.scope else { continue }
            if event.facility == .sourceOutput, event.kind == .new, core.withShared({ $0.machine.capturesMuted }) {
                // A capture stream the call starts while muted is muted too.
                await performer.muteCaptureStreams(selector, muted: true)
            }
            guard let route = core.withShared({ $0.machine.route }) else { continue }
            record(await performer.follow(event, selector: selector, route: route, tracker: tracker))
        }
    }
}
