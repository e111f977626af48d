import AudioContext
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// The capture driver on the simulated server: another client's volume changes, the echo,
/// the default moving while capturing, and stop.
@Suite("Volume capture on the simulated server")
struct VolumeCaptureSimulatedTests {
    static let half = ChannelVolumes(channelCount: 2, percent: 50)
    static let step = ChannelVolumes.normal / 20

    static func raised(_ volume: ChannelVolumes, by steps: Int) -> ChannelVolumes {
        ChannelVolumes(volume.values.map { UInt32(Int($0) + steps * Int(step)) })
    }

    @Test("a change is a press and is undone; the default moving hands capture over; beside a manager, no read of its own",
          .timeLimit(.minutes(1)), arguments: Following.allCases)
    func driver(following: Following) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addSink(DeviceBlueprint(name: "speakers"))
        _ = try server.addSink(DeviceBlueprint(name: "headset"))
        try await server.setDefaultSink("speakers")
        try await server.setSinkVolume("speakers", Self.half)
        try await server.setSinkVolume("headset", ChannelVolumes(channelCount: 2, percent: 100))
        // Beside a manager, capture's requests go through a server that counts its reads.
        let manager = following == .manager ? AudioDeviceManager(server: server, logger: ContextRig.logger) : nil
        try await manager?.start()
        let ownServer = ReadCountingServer(server)
        let capture = manager.map { VolumeButtonCapture(manager: $0, server: ownServer, logger: ContextRig.logger) }
            ?? VolumeButtonCapture(server: server, logger: ContextRig.logger)
        let level = { @Sendable (name: String) async throws -> SinkLevel? in
            try await server.sinks().first { $0.name == name }.map { SinkLevel(volume: $0.volume, isMuted: $0.isMuted) }
        }
        let halfLevel = SinkLevel(volume: Self.half, isMuted: false)
        let heldTop = SinkLevel(volume: ChannelVolumes(channelCount: 2, volume: ChannelVolumes.normal - Self.step), isMuted: false)
        try await capture.withCapture { events in
            var events = events.makeAsyncIterator()
            #expect(await events.next() == .capturing(sink: "speakers", original: halfLevel, held: halfLevel))
            try await server.setSinkVolume("speakers", Self.raised(Self.half, by: 1))
            #expect(await events.next() == .pressed(.up, sink: "speakers"))
            try await server.setSinkMute("speakers", muted: true)
            #expect(await events.next() == .pressed(.mute, sink: "speakers"), "no press from the echo in between")
            try await server.setSinkVolume("speakers", Self.raised(Self.half, by: -2))
            #expect(await events.next() == .pressed(.down, sink: "speakers"))
            #expect(await events.next() == .pressed(.down, sink: "speakers"), "two steps at once: two presses")

            try await server.setDefaultSink("headset")
            #expect(await events.next() == .released(sink: "speakers", restored: halfLevel))
            let headsetOriginal = SinkLevel(volume: ChannelVolumes(channelCount: 2, percent: 100), isMuted: false)
            #expect(await events.next() == .capturing(sink: "headset", original: headsetOriginal, held: heldTop))
            #expect(try await level("speakers") == halfLevel)
            #expect(try await level("headset") == heldTop)
        }
        #expect(try await level("headset") == SinkLevel(volume: ChannelVolumes(channelCount: 2, percent: 100), isMuted: false))
        #expect(try await level("speakers") == halfLevel)
        await manager?.stop()
        #expect(ownServer.reads == ReadCount(), "beside a manager, every reading is the manager's")
    }
}

extension ReadCountingServer: VolumeControllingServer {
    func setSinkMute(_ sink: String, muted: Bool) async throws { try await base.setSinkMute(sink, muted: muted) }
    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws { try await base.setSinkVolume(sink, volume) }
    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws { try await base.setSinkInputMute(sinkInput, muted: muted) }
}

/// Volume capture beside a manager, its readings against its own restores: a mirror read
/// before a restore landed and handed on after capture asked for the sink to be read again is
/// no press; a server that does not keep a restore cannot hold capture in a loop.
@Suite("Volume capture beside a manager: readings against its own restores")
struct VolumeCaptureStaleMirrorTests {
    static let half = ChannelVolumes(channelCount: 2, percent: 50)

    @Test("a mirror read before the restore landed, handed on after it, is no second press", .timeLimit(.minutes(1)))
    func staleLookupIsNoPress() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speakers"))
        _ = try simulated.addSink(DeviceBlueprint(name: "headset"))
        try await simulated.setDefaultSink("speakers")
        try await simulated.setSinkVolume("speakers", Self.half)
        let managed = HeldLookupsServer(simulated)
        let manager = AudioDeviceManager(server: managed, logger: ContextRig.logger)
        try await manager.start()
        let captureServer = HeldRequestsServer(simulated)
        let capture = VolumeButtonCapture(manager: manager, server: captureServer, logger: ContextRig.logger)
        var mirrors = manager.mirrors().makeAsyncIterator()
        let halfLevel = SinkLevel(volume: Self.half, isMuted: false)
        try await capture.withCapture { events in
            var events = events.makeAsyncIterator()
            #expect(await events.next() == .capturing(sink: "speakers", original: halfLevel, held: halfLevel))

            // A press; capture's restore is held before it reaches the server.
            var restores = captureServer.requests.hold()
            try await simulated.setSinkVolume("speakers", VolumeCaptureSimulatedTests.raised(Self.half, by: 1))
            #expect(await events.next() == .pressed(.up, sink: "speakers"))
            _ = await restores.next()

            // Another sink changes while the level is still raised: the manager's lookup of it
            // is held, and the mirror it makes will still show the speakers raised.
            var lookups = managed.lookups.hold()
            try await simulated.setSinkVolume("headset", Self.half)
            _ = await lookups.next()
            // The restore lands and is answered, capture asks for the speakers to be read
            // again, and only then does the held lookup's mirror come. The reading again is
            // held until that mirror is handed on (a follower behind gets the newest only: the
            // reading again's could replace it before capture takes it).
            captureServer.requests.release()
            try await waitUntilLevel(simulated, halfLevel)
            managed.lookups.release(keepHolding: true)
            while let mirror = await mirrors.next(), mirror.sinks.values.first(where: { $0.name == "headset" })?.volume != Self.half {}
            _ = await lookups.next()  // the reading again, asked
            managed.lookups.release()

            // The next event is this press, not an up from the stale reading.
            try await simulated.setSinkVolume("speakers", VolumeCaptureSimulatedTests.raised(Self.half, by: -1))
            #expect(await events.next() == .pressed(.down, sink: "speakers"))
        }
        await manager.stop()
    }

    @Test("a server that answers restores without keeping them: one press reads as five at most, and capture goes on",
          .timeLimit(.minutes(1)))
    func restoreNotKept() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speakers"))
        try await simulated.setDefaultSink("speakers")
        try await simulated.setSinkVolume("speakers", Self.half)
        let manager = AudioDeviceManager(server: simulated, logger: ContextRig.logger)
        try await manager.start()
        let capture = VolumeButtonCapture(manager: manager, server: VolumeKeepingNothingServer(simulated), logger: ContextRig.logger)
        let halfLevel = SinkLevel(volume: Self.half, isMuted: false)
        try await capture.withCapture { events in
            var events = events.makeAsyncIterator()
            #expect(await events.next() == .capturing(sink: "speakers", original: halfLevel, held: halfLevel))
            try await simulated.setSinkVolume("speakers", VolumeCaptureSimulatedTests.raised(Self.half, by: 1))
            var ups = 0
            try await simulated.setSinkMute("speakers", muted: true)
            while let event = await events.next(), event != .pressed(.mute, sink: "speakers") {
                #expect(event == .pressed(.up, sink: "speakers"))
                ups += 1
            }
            // The press, then each reading after a restore that did not hold: one and four more.
            #expect(ups >= 1 && ups <= 1 + 4 + 1, "\(ups) ups")
        }
        await manager.stop()
    }

    /// Waits until `server` shows the speakers at `level` (capture's restore answered).
    private func waitUntilLevel(_ server: SimulatedServer, _ level: SinkLevel) async throws {
        let events = server.events()
        let isThere = { @Sendable () async throws -> Bool in
            try await server.sink(named: "speakers").map { SinkLevel(volume: $0.volume, isMuted: $0.isMuted) == level } ?? false
        }
        if try await isThere() { return }
        for await _ in events where try await isThere() { return }
    }
}

/// A simulated server whose sink lookups can be held: each reads the server when asked, and
/// answers once the gate lets it go.
final class HeldLookupsServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    /// Holds the lookups' answers.
    let lookups = RequestGate()

    init(_ base: SimulatedServer) { self.base = base }

    func sink(at index: UInt32) async throws -> SinkInfo? {
        let answer = try await base.sink(at: index)
        _ = await lookups.pass("sink \(index)")
        return answer
    }
}

/// A simulated server whose volume and mute requests can be held before they reach it.
final class HeldRequestsServer: ForwardingServer, VolumeControllingServer, Sendable {
    let base: SimulatedServer
    /// Holds the requests before they reach the server.
    let requests = RequestGate()

    init(_ base: SimulatedServer) { self.base = base }

    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws {
        _ = await requests.pass(sink)
        try await base.setSinkVolume(sink, volume)
    }

    func setSinkMute(_ sink: String, muted: Bool) async throws {
        _ = await requests.pass(sink)
        try await base.setSinkMute(sink, muted: muted)
    }

    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws {
        try await base.setSinkInputMute(sinkInput, muted: muted)
    }
}

/// A simulated server that answers volume requests without applying them, as a server that
/// does not keep what a client set.
final class VolumeKeepingNothingServer: ForwardingServer, VolumeControllingServer, Sendable {
    let base: SimulatedServer

    init(_ base: SimulatedServer) { self.base = base }

    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws {}

    func setSinkMute(_ sink: String, muted: Bool) async throws { try await base.setSinkMute(sink, muted: muted) }

    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws {
        try await base.setSinkInputMute(sinkInput, muted: muted)
    }
}
