import DBus
import Glibc
import Logging
import MediaControl
import MPRIS
import ProcessRunner
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport

/// mpv with mpv-mpris playing the tone (a WAV file, looped) on a private session bus: the
/// real player, which RouteKit pauses through MPRIS.
final class MpvTone: LeakTone {
    private let process: ChildProcess

    var processID: Int32 { process.pid }

    /// Starts mpv against `server` on `bus`; `name` is its stream's application name (see
    /// ``ToneStream``: WirePlumber remembers mutes by application).
    init(server: SandboxServer, bus: PrivateSessionBus, file: String, name: String) async throws {
        let command = ["/usr/bin/mpv", "--no-video", "--no-terminal", "--ao=pulse", "--loop-file=inf",
                       "--audio-client-name=\(name)", file]
        // The benchmark's bus wins: a PipeWire sandbox has a session bus of its own.
        process = try await ChildProcess.launch(command, environment: server.environment.merging(bus.environment) { $1 },
                                                output: .nullDevice)
    }

    /// Kills mpv and waits until it is reaped.
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.completion(within: nil)
    }
}

/// RouteKit in this process with a real player: an `AudioDeviceManager`, the session's MPRIS
/// players on a private bus, and a `MediaGuard` pausing them with its default settings. Each
/// round's tone is mpv, played once the guard has seen it playing.
final class PlayerSwitcher: LeakSwitcher {
    let name = "RouteKit MediaGuard, in-process, pausing mpv"
    private let wave: String
    private var bus: PrivateSessionBus?
    private var connection: BusConnection?
    private var client: PulseClient?
    private var manager: AudioDeviceManager?
    private var running: Task<Void, Never>?
    private var listening: Task<Void, Never>?
    private let held = Shared<[ContinuousClock.Instant]>([])
    private let playing = Shared<[UInt32: AsyncStream<Void>.Continuation]>([:])

    /// A switcher whose mpv plays `wave`.
    init(wave: String) {
        self.wave = wave
    }

    func start(_ rig: LeakRig) async throws {
        var logger = Logger(label: "media-leak")
        logger.logLevel = .warning
        let bus = try await PrivateSessionBus.start()
        self.bus = bus
        let connection = try await BusConnection.open(.address(bus.address), logger: logger)
        self.connection = connection
        let players = try await MPRISPlayers.open(on: connection, logger: logger)
        let client = PulseClient(configuration: .init(server: rig.server.serverAddress, applicationName: "routekit-media-guard"),
                                 logger: logger)
        try await client.connect()
        let manager = AudioDeviceManager(server: client, scope: .system,
                                         preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: logger)
        let mediaGuard = MediaGuard(server: client, manager: manager, players: [players], logger: logger)
        let events = mediaGuard.events()
        let (ready, readiness) = AsyncStream.makeStream(of: Void.self)
        let held = self.held
        let playing = self.playing
        listening = Task {
            for await event in events {
                switch event {
                case .ready: readiness.yield()
                case .held: held.withLock { $0.append(.now) }
                case .player(let player) where player.status == .playing:
                    if let pid = player.processID { playing.withLock { $0[pid] }?.yield() }
                default: break
                }
            }
            readiness.finish()
        }
        try await manager.start()
        running = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await players.run() }
                group.addTask { await mediaGuard.run() }
            }
        }
        self.client = client
        self.manager = manager
        var iterator = ready.makeAsyncIterator()
        guard await iterator.next() != nil else { throw LeakError("the media guard stopped before it was ready") }
    }

    /// Starts mpv and returns once the guard has seen it playing (so that it can pause it).
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone {
        guard let bus else { throw LeakError("the player switcher is not started") }
        let (seen, see) = AsyncStream.makeStream(of: Void.self)
        let tone = try await MpvTone(server: rig.server, bus: bus, file: wave, name: name)
        playing.withLock { $0[UInt32(tone.processID)] = see }
        defer { _ = playing.withLock { $0.removeValue(forKey: UInt32(tone.processID)) } }
        let found = try? await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var iterator = seen.makeAsyncIterator()
                return await iterator.next() != nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(15))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        guard found == true else {
            await tone.stop()
            throw LeakError("the guard did not see mpv playing within 15 s")
        }
        return tone
    }

    func stop() async {
        running?.cancel()
        await running?.value
        await listening?.value
        await manager?.stop()
        client?.shutdown()
        await connection?.close()
        await bus?.stop()
        await bus?.remove()
        running = nil
        listening = nil
        manager = nil
        client = nil
        connection = nil
        bus = nil
    }

    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        held.withLock { $0.first { $0 > instant } }
    }
}
