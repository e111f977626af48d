import ConcurrencySupport
import Logging
import PulseAudio
import ServiceLifecycle

/// Running: the service's ``run()``, and ACB's ``start()``/``stop()`` facade over it.
extension AudioDeviceManager: Service {
    /// Follows the server until graceful shutdown (SIGTERM in a `ServiceGroup`) or
    /// cancellation, then puts back what the manager changed, within its restore timeout, and
    /// returns. Throws `PulseError` when the server cannot be read at first, and
    /// ``AudioDeviceManagerError/alreadyRunning`` when the manager runs already.
    public func run() async throws {
        try await run(ready: nil)
    }

    /// Reads the server's devices, applies the preferences, and follows the server until
    /// ``stop()``. Returns once the first decision is made (its switch may still be under way:
    /// the route comes as an event). Throws `PulseError` when the server cannot be read.
    /// Concurrent start and stop calls take turns; starting a running manager does nothing.
    public func start() async throws {
        try await gate.run { () async throws -> Void in
            guard !isRunning else { return }
            let ready = OneShotResult()
            let runner = Task { try await self.run(ready: ready) }
            core.withShared { $0.runner = runner }
            do {
                try await ready.value()
            } catch {
                _ = await runner.result
                core.withShared { $0.runner = nil }
                throw error
            }
        }
    }

    /// Stops following the server and puts back what the manager changed: the defaults first
    /// (PipeWire's configured default too), then the streams it pinned, the ports and profiles
    /// it switched; each only if nobody changed it since, all within the restore timeout (what
    /// is left is logged). Ends every ``events()`` stream. Returns at once when not running.
    public func stop() async {
        await gate.run { () async -> Void in
            guard let (signal, runner) = core.withShared({ shared in shared.stopSignal.map { ($0, shared.runner) } }) else { return }
            signal.give(())
            _ = await runner?.result
            core.withShared { $0.runner = nil }
        }
    }

    /// The run itself, on the server's preferred executor (libpulse's event thread for a
    /// `PulseClient`: no thread hop between an event and its switch); `ready` hears of the
    /// first decision, or of the failure to start.
    func run(ready: OneShotResult?) async throws {
        try await withTaskExecutorPreference(server.preferredTaskExecutor) {
            try await runLoop(ready: ready)
        }
    }

    private func runLoop(ready: OneShotResult?) async throws {
        let queue = InputQueue<EngineInput>()
        let stopSignal = OneShotValue<Void>()
        let claimed = core.withShared { shared -> Bool in
            guard shared.inputs == nil else { return false }
            shared.inputs = queue
            shared.stopSignal = stopSignal
            return true
        }
        guard claimed else {
            ready?.fail(AudioDeviceManagerError.alreadyRunning)
            throw AudioDeviceManagerError.alreadyRunning
        }
        let observation = server.observeEvents { event in
            guard let event else { return queue.push(.serverGone) }
            queue.push(.server(event, received: .now))
        }
        defer {
            observation.cancel()
            queue.finish()
        }
        let first: (loop: EngineLoop, actions: [RouteAction])
        announce(core.machine { $0.connecting() })
        do {
            first = try await begin(queue)
        } catch {
            core.withShared { shared in
                shared.inputs = nil
                shared.stopSignal = nil
            }
            announce(core.machine { $0.startFailed(error as? PulseError) })
            ready?.fail(error)
            throw error
        }
        ready?.succeed()
        let loop = first.loop
        let actions = first.actions
        let fallback = loop.fallback
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var loop = loop
                    await loop.run(first: actions)
                }
                group.addTask { _ = await stopSignal.value() }
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            stopSignal.give(())
        }
        // No order may fire while stop() puts things back. Off this thread: closing joins its own.
        if let fallback { await withTaskExecutorPreference(globalConcurrentExecutor) { fallback.shutdown() } }
        logger.debug("loop ended; restoring")
        core.withShared { $0.inputs = nil }
        // Commands that came after the loop's last wake change only what the next run keeps.
        queue.finish()
        while let leftovers = await queue.nextBatch() {
            for input in leftovers {
                switch input {
                case .command(let command, let ticket):
                    _ = core.machine { $0.handle(command, now: .now) }
                    ticket.punch()
                case .readAgain(_, _, let answer):
                    answer.give(core.withShared { $0.mirror })
                default:
                    continue
                }
            }
        }
        await finish()
    }

    /// The first look at the server: its devices and defaults, the user's configured ones on
    /// PipeWire, and the first decision.
    private func begin(_ queue: InputQueue<EngineInput>) async throws -> (EngineLoop, [RouteAction]) {
        async let infoRead = server.serverInfo()
        var tracker = try await DeviceTracker.read(from: server)
        let info = try await infoRead
        let serverIsPipeWire = info.implementation == .pipewire
        // The loop's check for missed defaults, made once before the first decision.
        var startReadingClient: UInt32?
        if scope == .system, serverIsPipeWire {
            (tracker, startReadingClient) = await checkedAgainstNewConnection(tracker)
        }
        var configured: ConfiguredDefaults?
        if info.implementation == .pipewire, let reader = configuredDefaultsStore {
            do { configured = try await reader.configuredDefaults() } catch {
                logger.notice("configured defaults unreadable; stop() will restore the defaults in use",
                              metadata: ["error": "\(error)"])
            }
        }
        let actions = core.machine {
            $0.start(devices: tracker.devices, defaultSink: tracker.defaultSinkName, defaultSource: tracker.defaultSourceName,
                     configured: configured, now: .now)
        }
        // The first mirror, before start() returns: followers begin from the first reading.
        core.publish(tracker.mirror(isConnected: true))
        // PulseAudio reads a removal late on a connection that follows more than sinks: the
        // fallback is armed ahead on one that follows sinks alone (``StandingFallback``).
        // pipewire-pulse shows each connection its own copy of the defaults, and reads
        // removals in step with WirePlumber's own choice anyway: none there.
        let fallback = scope == .system && info.implementation == .pulseaudio
            ? await server.openFallbackConnection(logger: logger) : nil
        var loop = EngineLoop(core: core, queue: queue, server: server, timings: timings,
                              performer: RouteActionPerformer(server: server, scope: scope, logger: logger), logger: logger,
                              tracker: tracker, serverIsPipeWire: serverIsPipeWire, fallback: fallback,
                              mirrorsStreams: mirrorsStreams)
        if let startReadingClient { loop.noteOwnReading(by: startReadingClient) }
        return (loop, actions)
    }

    /// On pipewire-pulse, the engine's connection can have been made just as a change of the
    /// default was dropped for it, and would show the old default until the next change
    /// (Docs/Reliability.md, "The PipeWire default that never reaches long-lived
    /// connections"): at login WirePlumber restores the user's default while every other
    /// client starts too. So the default is read once on a connection made for that reading;
    /// when it names another sink, this connection is renewed and the server read again, and
    /// the first decision goes by what the renewed connection reads. Each step is bounded by
    /// ``EngineLoop/renewalTimeLimit``; one that fails or is late keeps what `tracker` read.
    /// Also returns the reading's client index: its coming and going starts no other check.
    private func checkedAgainstNewConnection(_ tracker: DeviceTracker) async -> (DeviceTracker, UInt32?) {
        let server = self.server
        guard let reading = await untilDeadline(.now + EngineLoop.renewalTimeLimit, {
            try await server.serverInfoOnNewConnection()
        }) else {
            logger.debug("could not read the default on a new connection at start")
            return (tracker, nil)
        }
        guard let sink = reading.info.defaultSinkName, sink != tracker.defaultSinkName else { return (tracker, reading.clientIndex) }
        let renewed = await untilDeadline(.now + EngineLoop.renewalTimeLimit) {
            try await server.renewConnection()
            return try await DeviceTracker.read(from: server)
        }
        guard let renewed else {
            logger.debug("could not renew the server's connection at start")
            return (tracker, reading.clientIndex)
        }
        logger.notice("the server's connection had missed a change of the default at start; read again on a new one",
                      metadata: ["was": "\(tracker.defaultSinkName ?? "none")", "is": "\(renewed.defaultSinkName ?? "none")"])
        return (renewed, reading.clientIndex)
    }

    /// After the loop: puts things back (in a task of its own, so that a cancelled run still
    /// restores, within the bound), reports the route it leaves, ends the subscribers.
    private func finish() async {
        let ledger = core.withShared { shared in
            defer { shared.restoresOnStop = true }
            return shared.restoresOnStop ? shared.machine.ledger : RestorationLedger()
        }
        let restorer = Restorer(server: server, reader: configuredDefaultsStore, logger: logger,
                                deadline: .now + restoreTimeout)
        let outcome = await Task { await restorer.restore(ledger) }.value
        logger.debug("restored", metadata: ["left": "\(outcome.notRestored.count)"])
        if !outcome.notRestored.isEmpty {
            logger.warning("stop could not put everything back", metadata: ["left": "\(outcome.notRestored.joined(separator: "; "))"])
        }
        // The route left behind: the default restoring set, or else the default as last seen.
        let restored: AudioDevice? = scope == .system ? core.withShared { shared in
            guard let sink = outcome.sinkName else { return shared.machine.current }
            return shared.machine.devices.first { $0.output?.deviceName == sink }
        } : nil
        announce(core.machine { $0.stopped(restoredRoute: restored) })
        core.withShared { shared in
            shared.stopSignal = nil
            shared.mirror.isConnected = false
            shared.mirror.streams = nil
            shared.mirror.revision += 1
        }
        core.finishSubscribers()
    }

    /// Tells subscribers the machine's events, outside the loop (before it runs, after it ended).
    private func announce(_ actions: [RouteAction]) {
        for case .emit(let event) in actions { core.publish(event) }
    }
}

/// Why the manager could not run.
public enum AudioDeviceManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``AudioDeviceManager/run()`` was called while the manager runs already.
    case alreadyRunning

    /// For people.
    public var description: String {
        switch self {
        case .alreadyRunning: "the manager is running already"
        }
    }
}

extension Restorer.Outcome {
    /// The default sink restoring set, if it set one.
    var sinkName: String? {
        if case .set(let name) = sink { return name }
        return nil
    }
}
