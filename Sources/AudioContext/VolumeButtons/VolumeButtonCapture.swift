import ConcurrencySupport
import Logging
import PulseAudio
import RouteKit

/// Turns volume-button capture on or off.
public enum VolumeCaptureCommand: Hashable, Sendable {
    /// Hold the default output and report presses.
    case start
    /// Put the user's level back and stop reporting.
    case stop
}

/// Volume-button capture on a server (observe-and-restore): while on, a volume change on the
/// default output is reported as a press and undone. The decisions are the
/// ``VolumeCaptureMachine``'s; this driver hands it the default sink as the server shows it,
/// and performs what it answers, one thing at a time, so that a reading never overtakes a
/// restore.
///
/// On its own (``init(server:configuration:logger:)``) it reads the default sink after each
/// event that can matter. Beside an ``AudioDeviceManager``
/// (``init(manager:server:configuration:logger:)``) it reads nothing: the default sink comes
/// from the manager's ``ServerMirror``, and after each request it asks the manager for the
/// mirror that read the sink again (``AudioDeviceManager/mirror(readingAgain:defaults:)``), taking no
/// older one after it.
public struct VolumeButtonCapture: Sendable {
    let server: any VolumeControllingServer
    /// The manager whose mirror gives the readings; nil: capture reads `server` itself.
    let manager: AudioDeviceManager?
    let configuration: VolumeCaptureConfiguration
    let logger: Logger

    /// Capture on `server` with `configuration`; `logger` hears of requests the server refuses.
    public init(server: any VolumeControllingServer, configuration: VolumeCaptureConfiguration = VolumeCaptureConfiguration(),
                logger: Logger) {
        self.server = server
        self.manager = nil
        self.configuration = configuration
        self.logger = logger
    }

    /// Capture that follows `manager`'s mirror of its server and sends its requests on
    /// `server` (the manager's connection, or another one to the same server); `logger` hears
    /// of requests the server refuses.
    public init(manager: AudioDeviceManager, server: any VolumeControllingServer,
                configuration: VolumeCaptureConfiguration = VolumeCaptureConfiguration(), logger: Logger) {
        self.server = server
        self.manager = manager
        self.configuration = configuration
        self.logger = logger
    }

    /// Follows `commands` (capture is off until the first ``VolumeCaptureCommand/start``)
    /// and hands each ``VolumeCaptureEvent`` to `report`, which must return at once. Returns
    /// when `commands` ends, when the task is cancelled or when the server's connection is
    /// shut down; capture is then off and the user's level put back (also when cancelled),
    /// within ``VolumeCaptureConfiguration/restoreTimeout``.
    public func run(commands: AsyncStream<VolumeCaptureCommand>,
                    report: @escaping @Sendable (VolumeCaptureEvent) -> Void) async {
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        // Beside a manager its mirrors, else the server's events: subscribed before the first reading.
        let observation = manager == nil ? server.observeEvents { event in input.yield(event.map(Input.server) ?? .end) } : nil
        defer { observation?.cancel() }
        let mirrors = manager?.mirrors()
        var machine = VolumeCaptureMachine(configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await command in commands { input.yield(.command(command)) }
                input.yield(.end)
            }
            if let mirrors {
                group.addTask {
                    for await mirror in mirrors { input.yield(.mirror(mirror)) }
                    input.yield(.end)  // the manager stopped
                }
            }
            var loop = Loop(capture: self, report: report)
            await loop.run(inputs, machine: &machine)
            group.cancelAll()
        }
        // A cancelled task's requests are not sent: put back from a task of its own, within
        // the restore timeout (a frozen server answers nothing).
        logger.debug("volume capture: stopping; putting the level back")
        let capture = self
        let finalMachine = machine
        let deadline = ContinuousClock.now + configuration.restoreTimeout
        await Task {
            let restored: Bool? = await untilDeadline(deadline) {
                var machine = finalMachine
                await Loop(capture: capture, report: report).perform(machine.stop(), on: &machine)
                return true
            }
            if restored == nil {
                capture.logger.warning("volume capture: the server did not answer in \(capture.configuration.restoreTimeout); the level was not put back")
            }
        }.value
    }

    /// Captures while `body` runs, then puts the user's level back; `body` gets the events
    /// (the first is ``VolumeCaptureEvent/capturing(sink:original:held:)`` or
    /// ``VolumeCaptureEvent/waitingForSink``). The events end after the last one, the
    /// ``VolumeCaptureEvent/released(sink:restored:)`` of the stop.
    public func withCapture<Result: Sendable>(
        _ body: (AsyncStream<VolumeCaptureEvent>) async throws -> Result
    ) async throws -> Result {
        let (events, event) = AsyncStream.makeStream(of: VolumeCaptureEvent.self)
        let (commands, command) = AsyncStream.makeStream(of: VolumeCaptureCommand.self)
        command.yield(.start)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await run(commands: commands) { event.yield($0) }
                event.finish()
            }
            defer { command.finish() }
            let result = try await body(events)
            command.finish()
            try await group.waitForAll()
            return result
        }
    }

    /// What wakes the loop.
    enum Input: Sendable {
        case server(PulseEvent)
        case mirror(ServerMirror)
        case command(VolumeCaptureCommand)
        case end
    }

    /// The loop's effects: readings and requests, one at a time.
    struct Loop {
        let capture: VolumeButtonCapture
        let report: @Sendable (VolumeCaptureEvent) -> Void
        /// The default sink as last read: only its changes are looked at.
        var following = DefaultSinkFollowing()
        /// Beside a manager: which mirrors the machine is handed.
        var mirrors = MirrorReadingFilter()

        init(capture: VolumeButtonCapture, report: @escaping @Sendable (VolumeCaptureEvent) -> Void) {
            self.capture = capture
            self.report = report
        }

        mutating func run(_ inputs: AsyncStream<Input>, machine: inout VolumeCaptureMachine) async {
            for await input in inputs {
                capture.logger.trace("volume capture input", metadata: ["input": "\(input)"])
                switch input {
                case .end:
                    return
                case .command(.start):
                    guard !machine.isCapturing else { continue }
                    if let manager = capture.manager {
                        // From the default as the server shows it now: the mirror may not have
                        // caught up with a change just made (the user's level, set a moment
                        // before). Not connected: capture waits for a sink, and takes the next mirror.
                        let now = await manager.mirror(readingAgain: Set(manager.mirror.defaultSinkName.map { [$0] } ?? []),
                                                       defaults: true)
                        await performFollowing(machine.start(mirrors.start(with: now)), on: &machine)
                        continue
                    }
                    // Unreadable now: capture waits for a sink, nothing changed yet.
                    let reading = await read(after: nil) ?? nil
                    await perform(machine.start(reading), on: &machine)
                case .command(.stop):
                    await perform(machine.stop(), on: &machine)
                    mirrors.stop()
                case .mirror(let mirror):
                    guard machine.isCapturing, let reading = mirrors.take(mirror) else { continue }
                    await performFollowing(machine.observe(reading), on: &machine)
                case .server(.subscription(let change)):
                    guard machine.isCapturing, following.matters(change), let reading = await read(after: change) else { continue }
                    await perform(machine.observe(reading), on: &machine)
                case .server(.connectionStateChanged(.ready)):
                    guard machine.isCapturing, let reading = await read(after: nil) else { continue }
                    await perform(machine.observe(reading), on: &machine)
                case .server(.connectionStateChanged):
                    continue
                }
            }
        }

        /// The default sink after `change` (nil: read it all; `.some(nil)` inside: there is
        /// none), or nil when the server cannot be read or nothing the reading depends on
        /// changed: then nothing is decided (a failed read is no "default gone", which would
        /// take the held level for the user's).
        private mutating func read(after change: SubscriptionEvent?) async -> DefaultSinkReading?? {
            do {
                switch try await following.read(after: change, from: capture.server) {
                case .unchanged:
                    return nil
                case .read(_, let sink):
                    return .some(sink.map { DefaultSinkReading(sink: $0.name, level: SinkLevel(volume: $0.volume, isMuted: $0.isMuted)) })
                }
            } catch {
                capture.logger.debug("volume capture: server unreadable", metadata: ["error": "\(error)"])
                return nil
            }
        }

        /// Beside a manager: performs `actions`, then has the manager read again the sinks
        /// they changed and hands the machine what that mirror shows, and so on while it asks
        /// for more, at most ``rereadsInARow`` times (a server that answers a request but
        /// does not keep what it set waits for its next mirror).
        private mutating func performFollowing(_ actions: [VolumeCaptureAction], on machine: inout VolumeCaptureMachine) async {
            var actions = actions
            var rereads = 0
            while true {
                let changed = Set(actions.compactMap(\.sink))
                let answered = await perform(actions, on: &machine)
                guard let manager = capture.manager, answered, machine.isCapturing, rereads < Self.rereadsInARow else { return }
                rereads += 1
                guard let reading = mirrors.readAgain(await manager.mirror(readingAgain: changed)) else { return }
                actions = machine.observe(reading)
            }
        }

        /// How many requests in a row are followed by a reading of their own.
        static let rereadsInARow = 4

        /// Performs `actions` in order; an answered request is told to the machine. Returns
        /// whether any request was answered.
        @discardableResult
        func perform(_ actions: [VolumeCaptureAction], on machine: inout VolumeCaptureMachine) async -> Bool {
            var answered = false
            for action in actions {
                do {
                    switch action {
                    case .report(let event):
                        report(event)
                        continue
                    case .setVolume(let sink, let volume):
                        try await capture.server.setSinkVolume(sink, volume)
                    case .setMute(let sink, let muted):
                        try await capture.server.setSinkMute(sink, muted: muted)
                    }
                    machine.applied(action)
                    answered = true
                } catch {
                    capture.logger.notice("volume capture: request refused",
                                          metadata: ["request": "\(action)", "error": "\(error)"])
                }
            }
            return answered
        }
    }
}
