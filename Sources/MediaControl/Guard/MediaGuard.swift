import ConcurrencySupport
import Logging
import PulseAudio
import RouteKit

/// Pauses media when the private output it plays on goes away, resumes what it paused when a
/// private output is back, and holds media while call audio is on.
///
/// Run it beside an ``AudioDeviceManager`` (whose device model says which outputs are private
/// and whose call audio it follows): ``run()`` follows the server's sinks and streams, the
/// manager and the players until its task is cancelled, then unmutes whatever it still
/// holds muted. Beside a manager that mirrors streams (`mirrorsStreams`) the sinks and
/// streams come from the manager's mirrors and the guard reads nothing of its own; else it
/// reads them from `server`. Its mutes go to `server` either way. Decisions are
/// ``MediaMachine``'s; this type performs them.
public final class MediaGuard: Sendable {
    let server: any VolumeControllingServer
    private let manager: AudioDeviceManager
    private let sources: [any MediaPlayerControl]
    private let logger: Logger
    private let inputs = LockedValue<InputQueue<MediaInput>?>(nil)
    private let shared: LockedValue<Shared>

    private let broadcast = Broadcast<MediaEvent>()
    /// The sinks a stream plays on, as the machine last knew them: the server follower reads
    /// their changes at once (``ServerReading``). Written by ``run()``'s loop only.
    let playingSinks = LockedValue<Set<UInt32>>([])

    private struct Shared {
        var settings: MediaSettings
        var callStreams: CallStreams
        var paused: [String] = []
    }

    /// A guard over `server` and `manager` that pauses and resumes the players of `players`,
    /// and leaves the streams `callStreams` names alone.
    public init(server: any VolumeControllingServer, manager: AudioDeviceManager, players: [any MediaPlayerControl],
                settings: MediaSettings = MediaSettings(), callStreams: CallStreams = CallStreams(),
                logger: Logger = Logger(label: "routekit.media")) {
        self.server = server
        self.manager = manager
        self.sources = players
        self.logger = logger
        self.shared = LockedValue(Shared(settings: settings, callStreams: callStreams))
    }

    /// The settings in force.
    public var settings: MediaSettings { shared.withLock { $0.settings } }

    /// The players RouteKit paused and may still resume.
    public var pausedPlayers: [String] { shared.withLock { $0.paused } }

    /// Changes the settings; they apply from the next event on.
    public func update(_ settings: MediaSettings) {
        shared.withLock { $0.settings = settings }
        inputs.withLock { $0 }?.push(.settings(settings))
    }

    /// Which streams are calls' (never muted or paused), as last set.
    public var callStreams: CallStreams { shared.withLock { $0.callStreams } }

    /// Changes which streams are calls' (the engine's calls' processes, a softphone
    /// configured); streams held muted that are calls' now are unmuted at once.
    public func update(_ callStreams: CallStreams) {
        shared.withLock { $0.callStreams = callStreams }
        inputs.withLock { $0 }?.push(.callStreams(callStreams))
    }

    /// What the guard does from now on, until it stops.
    public func events() -> AsyncStream<MediaEvent> {
        broadcast.subscribe()
    }

    /// How long the unmuting after a stop may take: a server that does not answer by then
    /// (frozen) is given up on, so that the daemon's stop stays within its bound.
    public static let unmuteTimeout: Duration = .seconds(2)

    /// Follows the server, the manager and the players until the calling task is cancelled;
    /// then unmutes what it muted (paused players stay paused), within ``unmuteTimeout``.
    public func run() async {
        let queue = InputQueue<MediaInput>()
        inputs.withLock { $0 = queue }
        var machine = MediaMachine(settings: settings)
        _ = machine.callStreamsChanged(callStreams)
        var readiness = Readiness(sources: sources.count)
        var order = ReadingOrder<ServerObject>()
        var lanes = PlayerCommandLanes()
        await withDiscardingTaskGroup { group in
            if manager.mirrorsStreams {
                let mirrors = manager.mirrors()
                group.addTask { await Self.followMirrors(mirrors, into: queue) }
            } else {
                group.addTask { await self.followServer(into: queue) }
            }
            group.addTask { await self.followManager(into: queue) }
            for source in sources {
                group.addTask { await self.follow(source, into: queue) }
            }
            while !Task.isCancelled {
                guard let batch = await queue.nextBatch(until: machine.deadline) else { break }
                var actions: [MediaAction] = []
                let now = ContinuousClock.now
                for input in batch {
                    logger.trace("media input: \(input)")
                    actions += input.apply(to: &machine, order: &order, now: now)
                    readiness.note(input)
                }
                if readiness.becameReady() { actions.insert(.emit(.ready), at: 0) }
                actions += machine.tick(now: now)
                shared.withLock { $0.paused = machine.paused.keys.sorted() }
                let playing = machine.playingSinks
                playingSinks.withLock { if $0 != playing { $0 = playing } }
                await perform(actions, group: &group, lanes: &lanes)
            }
            lanes.finish()
            group.cancelAll()
        }
        inputs.withLock { $0 = nil }
        queue.finish()
        // Put back what is still muted, even though the task is cancelled, within the stop
        // bound: a frozen server (SIGSTOP) answers nothing, and the stop must not wait on it.
        let restoring = machine.stopping()
        let server = self.server
        let deadline = ContinuousClock.now + Self.unmuteTimeout
        await Task {
            _ = await untilDeadline(deadline) {
                for case .unmute(let index) in restoring { try? await server.setSinkInputMute(index, muted: false) }
            }
        }.value
        shared.withLock { $0.paused = [] }
        publish(restoring.compactMap { if case .emit(let event) = $0 { event } else { nil } })
        broadcast.finish()
    }

    /// Whether the guard has heard from the server, the device model and every player source yet.
    private struct Readiness {
        var sources: Int
        var sawServer = false
        var sawDevices = false
        var playerLists = 0
        var announced = false

        mutating func note(_ input: MediaInput) {
            switch input {
            case .reset: sawServer = true
            case .devices: sawDevices = true
            case .players: playerLists += 1
            default: break
            }
        }

        /// True once, when all have been heard.
        mutating func becameReady() -> Bool {
            guard sawServer, sawDevices, playerLists >= sources, !announced else { return false }
            announced = true
            return true
        }
    }

    // MARK: Performing

    private func perform(_ actions: [MediaAction], group: inout DiscardingTaskGroup, lanes: inout PlayerCommandLanes) async {
        if !actions.isEmpty { logger.trace("media actions: \(actions)") }
        // Mutes first and all at once: they are what keeps the loudspeaker quiet.
        let mutes = actions.compactMap { action -> (UInt32, Bool)? in
            switch action {
            case .mute(let index): (index, true)
            case .unmute(let index): (index, false)
            default: nil
            }
        }
        if !mutes.isEmpty {
            await withTaskGroup(of: Void.self) { requests in
                for (index, muted) in mutes {
                    requests.addTask {
                        do { try await self.server.setSinkInputMute(index, muted: muted) } catch {
                            self.logger.debug("media: \(muted ? "mute" : "unmute") of stream \(index) failed: \(error)")
                        }
                    }
                }
            }
        }
        for action in actions {
            switch action {
            case .pause(let name), .play(let name):
                guard let source = await source(of: name) else { continue }
                let play = if case .play = action { true } else { false }
                lanes.send(play: play, to: name, through: source, group: &group) { self.publish([.failed($0)]) }
            case .emit(let event):
                logger.info("media: \(event)")
                publish([event])
            case .mute, .unmute:
                break
            }
        }
    }

    private func source(of name: String) async -> (any MediaPlayerControl)? {
        for source in sources where await source.players().contains(where: { $0.name == name }) { return source }
        return nil
    }

    private func publish(_ events: [MediaEvent]) {
        for event in events { broadcast.send(event) }
    }

    // MARK: Following

    /// The manager's devices and call audio. Its first device list at start comes with its
    /// first route rather than as a change, so the list is read again after every event and
    /// passed on when it differs.
    private func followManager(into queue: InputQueue<MediaInput>) async {
        var devices: [AudioDevice]?
        for await event in manager.events() {
            switch event {
            case .state(let state): queue.push(.callAudio(state.isCallAudioActive))
            case .callAudioChanged(let isActive): queue.push(.callAudio(isActive))
            default: break
            }
            let now: [AudioDevice]
            if case .devicesChanged(let changed) = event { now = changed } else { now = manager.state.devices }
            if now != devices {
                devices = now
                queue.push(.devices(now))
            }
        }
    }

    private func follow(_ source: any MediaPlayerControl, into queue: InputQueue<MediaInput>) async {
        let events = source.events()
        queue.push(.players(await source.players()))
        for await event in events {
            switch event {
            case .appeared(let player), .changed(let player): queue.push(.player(player))
            case .vanished(let name): queue.push(.playerVanished(name))
            }
        }
    }
}
