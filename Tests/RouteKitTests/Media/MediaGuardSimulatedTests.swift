import ConcurrencySupport
import Glibc
import MediaControl
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// Media pausing where virtual devices cannot show it: a laptop's headphone jack pulled and
/// plugged again, with an in-process player; and media held during a call. Each case runs with
/// the guard reading the server itself and following a manager's mirror (`mirrored`).
@Suite("Media pausing on the simulated server: jacks and calls")
struct MediaGuardSimulatedTests {
    static let laptop = "alsa_card.pci-0000_00_1f.3"
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let headphones = "analog-output-headphones"
    static let player = "org.example.Music"

    /// A player whose commands cork and uncork its simulated stream, as a real player's pause
    /// does, and say so; its commands are written to `commands`. A pause is written before
    /// the stream corks (the guard's release, which the cork brings, comes after it), a play
    /// after the stream uncorks (a test that saw it written sees the stream playing).
    static func register(_ players: InProcessPlayers, _ name: String = player, processID: UInt32 = UInt32(getpid()),
                         stream: UInt32, on server: SimulatedServer, commands: CommandLog) {
        players.register(name, identity: name, processID: processID, status: .playing, commands: .init(
            pause: {
                await commands.append("pause \(name)")
                try server.setSinkInputCorked(stream, true)
                players.update(name, status: .paused)
            },
            play: {
                try server.setSinkInputCorked(stream, false)
                players.update(name, status: .playing)
                await commands.append("play \(name)")
            }))
    }

    static var ownProcess: [String: String] { ["application.process.id": String(getpid())] }

    /// Starts a manager with `preferences` on `server` and a guard over it pausing `players`,
    /// runs `body` with them once the guard is ready, then stops both. With `mirrored`, the
    /// manager mirrors streams and the guard follows its mirrors: then the guard's own server
    /// must have answered no read at all.
    static func guarding(_ server: SimulatedServer, preferences: [AudioPreference], players: InProcessPlayers, mirrored: Bool,
                         _ body: @escaping @Sendable (AudioDeviceManager, MediaGuard, MediaEventLog) async throws -> Void) async throws {
        let manager = AudioDeviceManager(server: server, preferences: preferences, mirrorsStreams: mirrored, logger: .forTests())
        let guardServer = StreamReadCountingServer(server)
        let mediaGuard = MediaGuard(server: guardServer, manager: manager, players: [players], logger: .forTests())
        try await manager.start()
        do {
            try await MediaEventLog.running(mediaGuard) { log in try await body(manager, mediaGuard, log) }
        } catch {
            await manager.stop()
            throw error
        }
        await manager.stop()
        if mirrored {
            #expect(guardServer.reads == 0, "beside a manager that mirrors streams, every reading is the manager's")
        } else {
            #expect(guardServer.reads > 0, "reading for itself")
        }
    }

    @Test("the jack pulled: the player is paused and its stream muted until it corks; plugged again: resumed, unmuted, where it was", arguments: [false, true])
    func jack(mirrored: Bool) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog(headphonesPlugged: true))
        let music = try server.addSinkInput(StreamBlueprint(name: "Music", properties: Self.ownProcess)).index
        let players = InProcessPlayers()
        let commands = CommandLog()
        Self.register(players, stream: music, on: server, commands: commands)
        try await Self.guarding(server, preferences: [.kind(.wiredHeadset), .kind(.speakerphone)], players: players, mirrored: mirrored) { manager, mediaGuard, log in

            try server.setJack(card: Self.laptop, jack: "Headphone", plugged: false)
            let held = try await log.next("the music held", after: 0) { if case .held = $0 { true } else { false } }
            #expect(held == .held(reason: .outputLost(Self.laptopSink), players: [Self.player], streams: [music], unmatchedStreams: []))
            // Released once the player corks, which can come before this line runs: looked for
            // from the start (nothing was released before).
            _ = try await log.next("the music released", after: 0) { $0 == .released(streams: [music]) }
            let paused = try #require(try await server.sinkInput(at: music))
            #expect(paused.isCorked && !paused.isMuted, "paused by its player, and no longer muted")
            #expect(await commands.seen == ["pause \(Self.player)"])
            #expect(mediaGuard.pausedPlayers == [Self.player])

            let mark = await log.count
            try server.setJack(card: Self.laptop, jack: "Headphone", plugged: true)
            let resumed = try await log.next("the music resumed", after: mark) { if case .resumed = $0 { true } else { false } }
            #expect(resumed == .resumed(reason: .outputLost(Self.laptopSink), players: [Self.player]))
            try await commands.wait(for: ["pause \(Self.player)", "play \(Self.player)"])
            let playing = try #require(try await server.sinkInput(at: music))
            #expect(!playing.isCorked && !playing.isMuted)
            #expect(try await server.sinks().first { $0.index == playing.sink }?.activePortName == Self.headphones)
        }
    }

    @Test("of two players paused on unplug, the one the user played again in between is not resumed; the other is", arguments: [false, true])
    func touched(mirrored: Bool) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog(headphonesPlugged: true))
        let music = try server.addSinkInput(StreamBlueprint(name: "Music", properties: Self.ownProcess)).index
        let radio = try server.addSinkInput(StreamBlueprint(name: "Radio", properties: ["application.process.id": "4000"])).index
        let players = InProcessPlayers()
        let commands = CommandLog()
        Self.register(players, stream: music, on: server, commands: commands)
        Self.register(players, "org.example.Radio", processID: 4000, stream: radio, on: server, commands: commands)
        try await Self.guarding(server, preferences: [.kind(.wiredHeadset), .kind(.speakerphone)], players: players, mirrored: mirrored) { manager, mediaGuard, log in
            try server.setJack(card: Self.laptop, jack: "Headphone", plugged: false)
            let held = try await log.next("both held", after: 0) { if case .held = $0 { true } else { false } }
            #expect(held == .held(reason: .outputLost(Self.laptopSink), players: [Self.player, "org.example.Radio"],
                                  streams: [music, radio], unmatchedStreams: []))
            try await log.wait("both released") { $0.contains(.released(streams: [music])) && $0.contains(.released(streams: [radio])) }
            // The user plays the music on the speaker, then pauses it again.
            players.update(Self.player, status: .playing)
            _ = try await log.next("the music forgotten", after: 0) { $0 == .forgotten(players: [Self.player]) }
            players.update(Self.player, status: .paused)

            let mark = await log.count
            try server.setJack(card: Self.laptop, jack: "Headphone", plugged: true)
            let resumed = try await log.next("a resume", after: mark) { if case .resumed = $0 { true } else { false } }
            #expect(resumed == .resumed(reason: .outputLost(Self.laptopSink), players: ["org.example.Radio"]))
            try await commands.wait(for: ["pause \(Self.player)", "pause org.example.Radio", "play org.example.Radio"], unordered: true)
            #expect(try await server.sinkInput(at: music)?.isCorked == true, "the music stays as the user left it")
        }
    }

    @Test("call audio: playing players paused and music muted, the call's own stream not; ending it gives back exactly those", arguments: [false, true])
    func callHold(mirrored: Bool) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let music = try server.addSinkInput(StreamBlueprint(name: "Music", properties: Self.ownProcess)).index
        let video = try server.addSinkInput(StreamBlueprint(name: "Video", applicationName: "Browser",
                                                            properties: ["media.role": "video", "application.process.id": "77"])).index
        let ring = try server.addSinkInput(StreamBlueprint(name: "Call", applicationName: "Phone",
                                                           properties: ["media.role": "phone", "application.process.id": "78"])).index
        let players = InProcessPlayers()
        let commands = CommandLog()
        Self.register(players, stream: music, on: server, commands: commands)
        try await Self.guarding(server, preferences: [.kind(.speakerphone)], players: players, mirrored: mirrored) { manager, mediaGuard, log in

            await manager.activateCallAudio()
            let held = try await log.next("media held for the call", after: 0) { if case .held = $0 { true } else { false } }
            #expect(held == .held(reason: .call, players: [Self.player], streams: [music, video], unmatchedStreams: []))
            try await commands.wait(for: ["pause \(Self.player)"])
            #expect(try await server.sinkInput(at: video)?.isMuted == true)
            #expect(try await server.sinkInput(at: ring)?.isMuted == false, "the call is heard")

            let mark = await log.count
            await manager.deactivateCallAudio()
            _ = try await log.next("media resumed after the call", after: mark) { $0 == .resumed(reason: .call, players: [Self.player]) }
            try await commands.wait(for: ["pause \(Self.player)", "play \(Self.player)"])
            for stream in [music, video, ring] {
                let info = try #require(try await server.sinkInput(at: stream))
                #expect(!info.isMuted && !info.isCorked, "stream \(stream) as before the call")
            }
        }
    }
}

/// The commands players received, in order, and waits on them.
actor CommandLog {
    private(set) var seen: [String] = []
    private var waiters: [Int: (holds: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0

    func append(_ command: String) {
        seen.append(command)
        for (id, waiter) in waiters where waiter.holds(seen) {
            waiters.removeValue(forKey: id)?.continuation.resume()
        }
    }

    /// Waits until the commands are `expected` (in any order when `unordered`); fails after
    /// 10 s with what came.
    func wait(for expected: [String], unordered: Bool = false) async throws {
        try await wait(until: "the commands \(expected)") { seen in
            unordered ? seen.sorted() == expected.sorted() : seen == expected
        }
    }

    /// Waits until the commands satisfy `condition`; fails after 10 s with what came.
    func wait(until what: String, _ condition: @escaping @Sendable ([String]) -> Bool) async throws {
        do {
            try await withTimeout(what, .seconds(10)) { await self.register(condition) }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); seen \(seen)")
        }
    }

    private func register(_ condition: @escaping @Sendable ([String]) -> Bool) async {
        if condition(seen) { return }
        let id = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume() } else { waiters[id] = (condition, continuation) }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }
}

/// A simulated server that counts every reading made through it (the server's defaults, sinks,
/// streams), for a follower that should read nothing of its own; its writes go through.
final class StreamReadCountingServer: ForwardingServer, VolumeControllingServer, Sendable {
    let base: SimulatedServer
    private let count = LockedValue(0)

    init(_ base: SimulatedServer) { self.base = base }

    /// The readings made so far.
    var reads: Int { count.withLock { $0 } }

    private func counted() { count.withLock { $0 += 1 } }

    func serverInfo() async throws -> ServerInfo { counted(); return try await base.serverInfo() }
    func sinks() async throws -> [SinkInfo] { counted(); return try await base.sinks() }
    func sink(at index: UInt32) async throws -> SinkInfo? { counted(); return try await base.sink(at: index) }
    func sinkInputs() async throws -> [SinkInputInfo] { counted(); return try await base.sinkInputs() }
    func sinkInput(at index: UInt32) async throws -> SinkInputInfo? { counted(); return try await base.sinkInput(at: index) }
    func setSinkMute(_ sink: String, muted: Bool) async throws { try await base.setSinkMute(sink, muted: muted) }
    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws { try await base.setSinkVolume(sink, volume) }
    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws { try await base.setSinkInputMute(sinkInput, muted: muted) }
}
