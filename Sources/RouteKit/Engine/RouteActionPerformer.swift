import Logging
import PulseAudio

/// Performs the machine's actions on the server: the only part of the engine that sends
/// commands. It reports what it changed (for the ledger) and throws a ``SwitchFailure`` with
/// the server's reason when a step is refused.
struct RouteActionPerformer: Sendable {
    let server: any AudioServer
    let scope: RouteScope
    let logger: Logger
    /// How many streams are moved at once.
    static let concurrentMoves = 4

    /// Selects `profile` on `card`; the device shows up with it later, as an event. Returns
    /// the change to record, and the failure if the request failed.
    func selectProfile(_ profile: String, card: String, tracker: DeviceTracker) async -> RouteOutcome {
        let original = tracker.state.cards.values.first { $0.name == card }?.activeProfileName
        let server = self.server
        let failure = await Self.outcome(.profile) { try await server.setCardProfile(card, profile: profile) }
        var outcome = RouteOutcome(failure: failure)
        // Recorded when answered, and when cut short by the stop after it went out (the server
        // may have applied it; the restore puts back only a profile the card still shows).
        if let original, original != profile, failure == nil || failure?.isCancellation == true {
            outcome.recorded = [.profile(card: card, original: original, selected: profile)]
        }
        return outcome
    }

    /// What a switch changed, and the step that failed, if one did: the changes made before
    /// a failure are still the manager's to put back.
    struct RouteOutcome: Sendable {
        var recorded: [RecordedChange] = []
        var failure: SwitchFailure?
    }

    /// Ports, then (system scope) the default sink and source back to back, or (application
    /// scope) the selected streams; stops at the first step refused or cancelled. A step
    /// cancelled (the run stopping) after its request went out may have been applied: a port
    /// is recorded as switched (the restore puts back only what the server shows as the
    /// manager's), a default as asked for and unanswered.
    func route(_ plan: RoutePlan, tracker: DeviceTracker) async -> RouteOutcome {
        var outcome = RouteOutcome()
        for change in portChanges(plan, tracker: tracker) {
            guard case .port(let device, let output, _, let port) = change else { continue }
            let server = self.server
            let failure = await Self.outcome(.port) {
                if output { try await server.setSinkPort(device, port: port) } else { try await server.setSourcePort(device, port: port) }
            }
            if failure == nil || failure?.isCancellation == true { outcome.recorded.append(change) }
            if let failure {
                outcome.failure = failure
                return outcome
            }
        }
        switch scope {
        case .system:
            if let failure = await setDefaults(plan) {
                outcome.failure = failure
                if failure.isCancellation { outcome.recorded += unanswered(plan) }
                return outcome
            }
            if plan.setsSink { outcome.recorded.append(.defaultSink(plan.sink)) }
            if plan.setsSource, let source = plan.source { outcome.recorded.append(.defaultSource(source)) }
        case .application(let selector):
            outcome.recorded += await moveSelected(selector, toSink: plan.sink, source: plan.source, tracker: tracker)
        }
        return outcome
    }

    /// The port switches `plan` needs: the sink's, then the source's, each where the device's
    /// active port is another.
    private func portChanges(_ plan: RoutePlan, tracker: DeviceTracker) -> [RecordedChange] {
        var changes: [RecordedChange] = []
        if let port = plan.sinkPort, let current = tracker.state.sinks.values.first(where: { $0.name == plan.sink })?.activePortName,
           current != port {
            changes.append(.port(device: plan.sink, output: true, original: current, selected: port))
        }
        if let source = plan.source, let port = plan.sourcePort,
           let current = tracker.state.sources.values.first(where: { $0.name == source })?.activePortName, current != port {
            changes.append(.port(device: source, output: false, original: current, selected: port))
        }
        return changes
    }

    /// The defaults `plan` asked for, as asked for and unanswered: a switch cancelled while
    /// they were out (the run stopping) may have had them applied, so the restore counts them
    /// as the manager's.
    private func unanswered(_ plan: RoutePlan) -> [RecordedChange] {
        var changes: [RecordedChange] = []
        if plan.setsSink { changes.append(.defaultSinkUnanswered(plan.sink)) }
        if plan.setsSource, let source = plan.source { changes.append(.defaultSourceUnanswered(source)) }
        return changes
    }

    /// Sets the defaults `plan` asks for; the failure, if a request failed.
    private func setDefaults(_ plan: RoutePlan) async -> SwitchFailure? {
        let server = self.server
        switch (plan.setsSink, plan.setsSource ? plan.source : nil) {
        case (true, let source?):
            // Both requests go out before either answer is awaited.
            async let sinkResult = Self.outcome(.defaultSink) { try await server.setDefaultSink(plan.sink) }
            async let sourceResult = Self.outcome(.defaultSource) { try await server.setDefaultSource(source) }
            let (sink, source) = await (sinkResult, sourceResult)
            return sink ?? source
        case (true, nil):
            return await Self.outcome(.defaultSink) { try await server.setDefaultSink(plan.sink) }
        case (false, let source?):
            return await Self.outcome(.defaultSource) { try await server.setDefaultSource(source) }
        case (false, nil):
            return nil
        }
    }

    /// After a confirmed switch: the streams that stayed on the old default or the old route
    /// (they did not follow) go to the new one, the default now, which does not pin them.
    /// Streams owned by a module (loopback, echo-cancel) and streams elsewhere (pinned there by
    /// someone) stay.
    ///
    /// `followers` are the streams moved this way before: they follow the route wherever the
    /// server left them (a stream whose sink vanished under a quick switch is put back by
    /// PipeWire on the sink it was last moved to). Returns the followers now.
    func moveStrays(fromSinks: [String], toSink: String, fromSources: [String], toSource: String?,
                    followers: Followers, tracker: DeviceTracker) async -> Followers {
        var moves: [@Sendable (any AudioServer) async throws -> Void] = []
        var now = Followers()
        let sinks = Set(tracker.state.sinks.values.filter { fromSinks.contains($0.name) }.map(\.index))
        let target = tracker.state.sinks.values.first { $0.name == toSink }?.index
        if !sinks.isEmpty || !followers.playback.isEmpty, let streams = try? await server.sinkInputs() {
            for stream in streams where stream.ownerModule == nil {
                let follows = sinks.contains(stream.sink) || followers.playback.contains(stream.index)
                guard follows else { continue }
                now.playback.insert(stream.index)
                if stream.sink != target { moves.append { try await $0.moveSinkInput(stream.index, toSink: toSink) } }
            }
        }
        let sources = Set(tracker.state.sources.values.filter { fromSources.contains($0.name) }.map(\.index))
        if let toSource, !sources.isEmpty || !followers.recording.isEmpty, let streams = try? await server.sourceOutputs() {
            let target = tracker.state.sources.values.first { $0.name == toSource }?.index
            for stream in streams where stream.ownerModule == nil {
                let follows = sources.contains(stream.source) || followers.recording.contains(stream.index)
                guard follows else { continue }
                now.recording.insert(stream.index)
                if stream.source != target { moves.append { try await $0.moveSourceOutput(stream.index, toSource: toSource) } }
            }
        } else {
            now.recording = followers.recording
        }
        await run(moves)
        return now
    }

    /// Application scope: every selected stream not on the route goes there (and is pinned
    /// there, which stop() undoes).
    func moveSelected(_ selector: StreamSelector, toSink sink: String, source: String?, tracker: DeviceTracker) async -> [RecordedChange] {
        var recorded: [RecordedChange] = []
        var moves: [@Sendable (any AudioServer) async throws -> Void] = []
        let sinkNames = Dictionary(tracker.state.sinks.values.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first })
        for stream in (try? await server.sinkInputs()) ?? [] where selector.matches(stream.properties) {
            let from = sinkNames[stream.sink]
            guard from != sink else { continue }
            recorded.append(.streamMoved(index: stream.index, output: true, name: stream.name, client: stream.client, from: from, to: sink))
            moves.append { try await $0.moveSinkInput(stream.index, toSink: sink) }
        }
        if let source {
            let sources = tracker.state.sources
            for stream in (try? await server.sourceOutputs()) ?? [] where selector.matches(stream.properties) {
                guard let from = sources[stream.source], !from.isMonitor, from.name != source else { continue }
                recorded.append(.streamMoved(index: stream.index, output: false, name: stream.name, client: stream.client,
                                             from: from.name, to: source))
                moves.append { try await $0.moveSourceOutput(stream.index, toSource: source) }
            }
        }
        await run(moves)
        return recorded
    }

    /// Application scope: one stream that started or moved, put on the route if selected.
    func follow(_ event: SubscriptionEvent, selector: StreamSelector, route: AudioDevice, tracker: DeviceTracker) async -> [RecordedChange] {
        if event.facility == .sinkInput {
            guard let sink = route.output?.deviceName, let stream = try? await server.sinkInput(at: event.index),
                  selector.matches(stream.properties) else { return [] }
            let from = tracker.state.sinks[stream.sink]?.name
            guard from != sink else { return [] }
            await run([{ try await $0.moveSinkInput(stream.index, toSink: sink) }])
            return [.streamMoved(index: stream.index, output: true, name: stream.name, client: stream.client, from: from, to: sink)]
        }
        guard let source = route.input?.deviceName, let stream = try? await server.sourceOutput(at: event.index),
              selector.matches(stream.properties), let from = tracker.state.sources[stream.source], !from.isMonitor,
              from.name != source else { return [] }
        await run([{ try await $0.moveSourceOutput(stream.index, toSource: source) }])
        return [.streamMoved(index: stream.index, output: false, name: stream.name, client: stream.client, from: from.name, to: source)]
    }

    /// Puts a card back on `profile` if it still has the one call audio selected.
    func restoreProfile(card: String, profile: String, ifStill selected: String?, tracker: DeviceTracker) async {
        let active = tracker.state.cards.values.first { $0.name == card }?.activeProfileName
        guard active == nil || selected == nil || active == selected else { return }
        do { try await server.setCardProfile(card, profile: profile) } catch {
            logger.warning("could not restore the profile", metadata: ["card": "\(card)", "error": "\(error)"])
        }
    }

    /// Makes `source` the default source again.
    func restoreDefaultSource(_ source: String) async {
        do { try await server.setDefaultSource(source) } catch {
            logger.warning("could not restore the default source", metadata: ["source": "\(source)", "error": "\(error)"])
        }
    }

    /// Mutes or unmutes `source` for the microphone's mute.
    func muteSource(_ source: String, muted: Bool) async throws(SwitchFailure) {
        try await perform(.microphone) { try await $0.setSourceMute(source, muted: muted) }
    }

    /// Application scope: mutes or unmutes the selected capture streams; a stream that ended
    /// meanwhile is passed over.
    func muteCaptureStreams(_ selector: StreamSelector, muted: Bool) async {
        guard let streams = try? await server.sourceOutputs() else { return }
        let chosen = streams.filter { selector.matches($0.properties) && $0.isMuted != muted }.map(\.index)
        await run(chosen.map { index in { try await $0.setSourceOutputMute(index, muted: muted) } })
    }

    // MARK: Helpers

    /// Runs moves a few at a time; a stream that ended or cannot move is logged, not a failure.
    private func run(_ moves: [@Sendable (any AudioServer) async throws -> Void]) async {
        guard !moves.isEmpty else { return }
        let server = self.server, logger = self.logger
        await withTaskGroup(of: Void.self) { group in
            var pending = moves.makeIterator()
            func next() -> Bool {
                guard let move = pending.next() else { return false }
                group.addTask {
                    do { try await move(server) } catch {
                        logger.debug("stream not moved", metadata: ["error": "\(error)"])
                    }
                }
                return true
            }
            for _ in 0..<Self.concurrentMoves where next() {}
            while await group.next() != nil { _ = next() }
        }
    }

    private func perform(_ step: SwitchFailure.Step, _ request: @Sendable (any AudioServer) async throws -> Void) async throws(SwitchFailure) {
        if let failure = await Self.outcome(step, { try await request(server) }) { throw failure }
    }

    /// Runs one request; nil when it succeeded, else what it threw as a ``SwitchFailure``.
    private static func outcome(_ step: SwitchFailure.Step, _ request: @Sendable () async throws -> Void) async -> SwitchFailure? {
        do {
            try await request()
            return nil
        } catch let error as PulseError {
            return SwitchFailure(step: step, code: error.code, message: "\(error.operation): \(error.reason)")
        } catch is CancellationError {
            return .cancelled(step)
        } catch {
            return SwitchFailure(step: step, message: "\(error)")
        }
    }
}

/// The streams that followed the route in system scope (moved with it once), by index.
struct Followers: Sendable, Equatable {
    var playback: Set<UInt32> = []
    var recording: Set<UInt32> = []
}
