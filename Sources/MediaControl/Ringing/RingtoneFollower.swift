import ConcurrencySupport
import Logging
import PulseAudio
import RouteKit
import Synchronization

/// Sends ringtones and notifications to the loudspeaker (or the loudspeaker and the headset)
/// while a call rings and a headset is in use, and puts them back when the ringing ends.
///
/// Run it beside an ``AudioDeviceManager``: ``run()`` follows the manager's calls, route and
/// devices, and the server's sinks and streams: from the manager's mirror when the manager
/// mirrors streams (`mirrorsStreams`: nothing read of its own), else read from `server`, only
/// while a call rings; until its task is cancelled, then it puts back what it moved.
/// Decisions are ``RingtoneMachine``'s; this type performs them (moves and the combined sink,
/// on `server`). Silent mode is told with ``update(silent:)``.
public final class RingtoneFollower: Sendable {
    private let server: any RingingServer
    private let manager: AudioDeviceManager
    private let logger: Logger
    private let inputs = LockedValue<InputQueue<RingtoneInput>?>(nil)
    private let shared: LockedValue<(settings: RingingSettings, isSilent: Bool)>
    /// Whether the server's streams are read: while a call rings, or streams are out. Written by ``run()``'s loop.
    private let following = Atomic<Bool>(false)
    private let broadcast = Broadcast<RingtoneEvent>()

    /// A follower over `server` and `manager` with `settings`.
    public init(server: any RingingServer, manager: AudioDeviceManager, settings: RingingSettings = RingingSettings(),
                logger: Logger = Logger(label: "routekit.ringing")) {
        self.server = server
        self.manager = manager
        self.logger = logger
        shared = LockedValue((settings, false))
    }

    /// The settings in force.
    public var settings: RingingSettings { shared.withLock { $0.settings } }

    /// Changes the settings; they apply at once (what the old ones moved goes back first).
    public func update(_ settings: RingingSettings) {
        shared.withLock { $0.settings = settings }
        inputs.withLock { $0 }?.push(.settings(settings))
    }

    /// Silent mode turned on or off: while on, nothing rings on the loudspeaker.
    public func update(silent isSilent: Bool) {
        shared.withLock { $0.isSilent = isSilent }
        inputs.withLock { $0 }?.push(.silent(isSilent))
    }

    /// What the follower does from now on, until it stops.
    public func events() -> AsyncStream<RingtoneEvent> {
        broadcast.subscribe()
    }

    /// Follows the manager and the server until the calling task is cancelled; then puts back
    /// what it moved and unloads the combined sink.
    public func run() async {
        let queue = InputQueue<RingtoneInput>()
        let (settings, isSilent) = shared.withLock { ($0.settings, $0.isSilent) }
        var machine = RingtoneMachine(settings: settings)
        _ = machine.silentModeChanged(isSilent)
        inputs.withLock { $0 = queue }
        let mirrored = manager.mirrorsStreams
        await withDiscardingTaskGroup { group in
            if mirrored {
                let mirrors = manager.mirrors()
                group.addTask { await Self.followMirrors(mirrors, into: queue) }
            } else {
                group.addTask { await self.followServer(into: queue) }
            }
            group.addTask { await self.followManager(into: queue) }
            while !Task.isCancelled {
                guard let batch = await queue.nextBatch() else { break }
                var actions: [RingtoneAction] = []
                for input in batch {
                    logger.trace("ringing input: \(input)")
                    actions += input.apply(to: &machine)
                }
                let follows = machine.followsStreams && !mirrored
                if follows && !following.exchange(true, ordering: .relaxed) {
                    group.addTask { await self.readEverything(into: queue) }
                } else if !follows {
                    following.store(false, ordering: .relaxed)
                }
                await perform(actions, into: queue)
            }
            group.cancelAll()
        }
        inputs.withLock { $0 = nil }
        queue.finish()
        // Put back what is still out, even though the task is cancelled.
        let restoring = machine.stopping()
        await Task { await self.perform(restoring, into: nil) }.value
        broadcast.finish()
    }

    // MARK: Effects

    private func perform(_ actions: [RingtoneAction], into queue: InputQueue<RingtoneInput>?) async {
        for action in actions {
            switch action {
            case .move(let stream, let sink):
                do {
                    try await server.moveSinkInput(stream, toSink: sink)
                } catch {
                    queue?.push(.moveFailed(stream: stream, reason: "\(error)"))
                }
            case .loadCombinedSink(let name, let sinks):
                let arguments = "sink_name=\(name) slaves=\(sinks.joined(separator: ",")) "
                    + "sink_properties=device.description=Ringing"
                do {
                    queue?.push(.combinedLoaded(try await server.loadModule("module-combine-sink", arguments: arguments)))
                } catch {
                    queue?.push(.combinedFailed("\(error)"))
                }
            case .unloadModule(let module):
                do {
                    try await server.unloadModule(module)
                } catch {
                    broadcast.send(.failed("the ringing's combined sink (module #\(module)) could not be unloaded: \(error)"))
                }
            case .emit(let event):
                broadcast.send(event)
            }
        }
    }

    // MARK: Following

    /// The manager's calls, route and devices. Its first device list at start comes with its
    /// first route rather than as a change, so the list is read again after every event and
    /// passed on when it differs (as media pausing does).
    private func followManager(into queue: InputQueue<RingtoneInput>) async {
        var devices: [AudioDevice]?
        for await event in manager.events() {
            switch event {
            case .state(let state):
                queue.push(.route(state.route))
                queue.push(.calls(state.calls))
            case .callsChanged(let calls): queue.push(.calls(calls))
            case .routeChanged(_, let route, _): queue.push(.route(route))
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

    /// The server's sinks and playback streams, while ``following``; read one event at a
    /// time, so that they arrive in the server's order.
    private func followServer(into queue: InputQueue<RingtoneInput>) async {
        for await event in server.events() {
            switch event {
            case .connectionStateChanged(.ready):
                if following.load(ordering: .relaxed) { await readEverything(into: queue) }
            case .connectionStateChanged:
                break
            case .subscription(let change):
                guard following.load(ordering: .relaxed) else { continue }
                await read(change, into: queue)
            }
        }
    }

    private func read(_ change: SubscriptionEvent, into queue: InputQueue<RingtoneInput>) async {
        do {
            switch (change.facility, change.kind) {
            case (.sink, .remove):
                queue.push(.sinkRemoved(change.index))
            case (.sinkInput, .remove):
                queue.push(.streamRemoved(change.index))
            case (.sink, _):
                if let sink = try await server.sink(at: change.index) {
                    queue.push(.sink(index: sink.index, name: sink.name))
                }
            case (.sinkInput, _):
                if let stream = try await server.sinkInput(at: change.index) {
                    queue.push(.stream(index: stream.index, sink: stream.sink, properties: stream.properties))
                } else {
                    queue.push(.streamRemoved(change.index))
                }
            default:
                break
            }
        } catch {
            // The connection went; its return reads everything again.
        }
    }

    private func readEverything(into queue: InputQueue<RingtoneInput>) async {
        do {
            async let sinks = server.sinks()
            async let streams = server.sinkInputs()
            queue.push(.reset(sinks: try await sinks.map { ($0.index, $0.name) },
                              streams: try await streams.map { ($0.index, $0.sink, $0.properties) }))
        } catch {
            // Not connected: the connection's return brings another reading.
        }
    }
}
