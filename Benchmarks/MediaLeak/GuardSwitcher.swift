import DBus
import Logging
import MediaControl
import MPRIS
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport

/// RouteKit in this process: a `PulseClient`, an `AudioDeviceManager` preferring Bluetooth
/// then the speakerphone, and a `MediaGuard`.
///
/// Without a player, the tone is `pacat` and the guard has no player to pause: the stream is
/// muted at the unplug and stays muted (`unmatchedMuteDuration` 5 s) for the whole window.
/// With `mpvPlaying`, the tone is mpv (mpv-mpris) on a private session bus, and the guard,
/// with its default settings, pauses it through MPRIS.
final class GuardSwitcher: LeakSwitcher {
    let name: String
    /// The WAV file mpv loops; nil for `pacat` and no player.
    private let wave: String?
    private let held = Shared<[ContinuousClock.Instant]>([])
    private let playing = Shared<[UInt32: AsyncStream<Void>.Continuation]>([:])
    /// The players' bus, while a round runs with mpv.
    private let bus = Shared<PrivateSessionBus?>(nil)

    /// Whether the manager mirrors streams, so that the guard follows its mirrors and reads
    /// nothing of its own (as in `routectl daemon` with call detection on).
    private let mirrored: Bool

    /// A switcher whose tone is `pacat`, or mpv playing `wave`; its guard follows the
    /// manager's mirrors when `mirrored`, else reads the server itself.
    init(mpvPlaying wave: String? = nil, mirrored: Bool = false) {
        self.wave = wave
        self.mirrored = mirrored
        name = (wave == nil ? "RouteKit MediaGuard, in-process" : "RouteKit MediaGuard, in-process, pausing mpv")
            + (mirrored ? ", on the manager's mirror" : "")
    }

    /// Connects, starts the manager and the guard (and the MPRIS players), runs `round` once
    /// the guard says it is ready, then stops the guard (it unmutes what it holds), the
    /// manager, and disconnects.
    func running(_ rig: LeakRig, _ round: () async throws -> LeakRound) async throws -> LeakRound {
        var logger = Logger(label: "media-leak")
        logger.logLevel = .warning
        let session = wave == nil ? nil : try await PlayerSession.open(logger: logger)
        bus.withLock { $0 = session?.bus }
        let client = PulseClient(configuration: .init(server: rig.server.serverAddress, applicationName: "routekit-media-guard"),
                                 logger: logger)
        let manager = AudioDeviceManager(server: client, scope: .system,
                                         preferences: [.kind(.bluetooth), .kind(.speakerphone)], mirrorsStreams: mirrored,
                                         logger: logger)
        let outcome: Result<LeakRound, any Error>
        do {
            try await client.connect()
            try await manager.start()
            outcome = await guarding(client: client, manager: manager, players: session?.players, logger: logger, round)
        } catch {
            outcome = .failure(error)
        }
        await manager.stop()
        client.shutdown()
        bus.withLock { $0 = nil }
        await session?.close()
        return try outcome.get()
    }

    /// Runs the guard (and the players) beside `round`, and ends them after it.
    private func guarding(client: PulseClient, manager: AudioDeviceManager, players: MPRISPlayers?, logger: Logger,
                          _ round: () async throws -> LeakRound) async -> Result<LeakRound, any Error> {
        let settings = players == nil ? MediaSettings(unmatchedMuteDuration: .seconds(5)) : MediaSettings()
        let mediaGuard = MediaGuard(server: client, manager: manager, players: players.map { [$0] } ?? [], settings: settings,
                                    logger: logger)
        let events = mediaGuard.events()
        let (ready, readiness) = AsyncStream.makeStream(of: Void.self)
        return await withTaskGroup(of: Void.self) { [held, playing] group in
            group.addTask {
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
            if let players { group.addTask { await players.run() } }
            group.addTask { await mediaGuard.run() }
            defer { group.cancelAll() }
            do {
                var iterator = ready.makeAsyncIterator()
                guard await iterator.next() != nil else { throw LeakError("the media guard stopped before it was ready") }
                return .success(try await round())
            } catch {
                return .failure(error)
            }
        }
    }

    /// `pacat`, or mpv once the guard has seen it playing (so that it can pause it).
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone {
        guard let wave else {
            return try await rig.pacatTone(name: name)
        }
        guard let bus = bus.withLock({ $0 }) else { throw LeakError("the player switcher is not started") }
        let (seen, see) = AsyncStream.makeStream(of: Void.self)
        let tone = try await MpvTone(server: rig.server, bus: bus, file: wave, name: name)
        playing.withLock { $0[UInt32(tone.processID)] = see }
        defer { _ = playing.withLock { $0.removeValue(forKey: UInt32(tone.processID)) } }
        do {
            try await withTimeout("mpv seen playing", .seconds(15)) {
                var iterator = seen.makeAsyncIterator()
                guard await iterator.next() != nil else { throw LeakError("the guard stopped before it saw mpv") }
            }
        } catch {
            await tone.stop()
            throw LeakError("the guard did not see mpv playing within 15 s")
        }
        return tone
    }

    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        held.withLock { $0.first { $0 > instant } }
    }
}

/// The session's MPRIS players on a private bus of their own, for mpv to register on.
private struct PlayerSession: Sendable {
    let bus: PrivateSessionBus
    let connection: BusConnection
    let players: MPRISPlayers

    static func open(logger: Logger) async throws -> PlayerSession {
        let bus = try await PrivateSessionBus.start()
        var connection: BusConnection?
        do {
            let opened = try await BusConnection.open(.address(bus.address), logger: logger)
            connection = opened
            return PlayerSession(bus: bus, connection: opened, players: try await MPRISPlayers.open(on: opened, logger: logger))
        } catch {
            await connection?.close()
            await bus.stop()
            await bus.remove()
            throw error
        }
    }

    func close() async {
        await connection.close()
        await bus.stop()
        await bus.remove()
    }
}
