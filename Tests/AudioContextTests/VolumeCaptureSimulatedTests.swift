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

    @Test("a change is a press and is undone; the default moving hands capture over", .timeLimit(.minutes(1)))
    func driver() async throws {
        let server = SimulatedServer()
        _ = try server.addSink(DeviceBlueprint(name: "speakers"))
        _ = try server.addSink(DeviceBlueprint(name: "headset"))
        try await server.setDefaultSink("speakers")
        try await server.setSinkVolume("speakers", Self.half)
        try await server.setSinkVolume("headset", ChannelVolumes(channelCount: 2, percent: 100))
        let capture = VolumeButtonCapture(server: server, logger: ContextRig.logger)
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
    }
}

/// Capture beside a manager: the same presses, and not one read of its own.
@Suite("Volume capture from the manager's mirror")
struct VolumeCaptureMirrorTests {
    @Test("presses are seen and undone from the manager's mirror; capture itself reads nothing", .timeLimit(.minutes(1)))
    func readsNothingOfItsOwn() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speakers"))
        _ = try simulated.addSink(DeviceBlueprint(name: "headset"))
        try await simulated.setDefaultSink("speakers")
        let half = VolumeCaptureSimulatedTests.half
        try await simulated.setSinkVolume("speakers", half)
        let manager = AudioDeviceManager(server: simulated)
        try await manager.start()
        // Capture's own requests go through a counter: it may write, and must not read.
        let requests = ReadCountingServer(simulated)
        let capture = VolumeButtonCapture(server: requests, following: manager, logger: ContextRig.logger)
        let halfLevel = SinkLevel(volume: half, isMuted: false)
        try await capture.withCapture { events in
            var events = events.makeAsyncIterator()
            #expect(await events.next() == .capturing(sink: "speakers", original: halfLevel, held: halfLevel))
            try await simulated.setSinkVolume("speakers", VolumeCaptureSimulatedTests.raised(half, by: 1))
            #expect(await events.next() == .pressed(.up, sink: "speakers"))
            try await simulated.setSinkMute("speakers", muted: true)
            #expect(await events.next() == .pressed(.mute, sink: "speakers"), "no press from the echo in between")
            try await simulated.setDefaultSink("headset")
            #expect(await events.next() == .released(sink: "speakers", restored: halfLevel))
            guard case .capturing(sink: "headset", _, _) = await events.next() else {
                Issue.record("capture handed over to the headset")
                return
            }
        }
        #expect(requests.reads == ReadCount(), "no read: the mirror told capture everything")
        let speakers = try await simulated.sinks().first { $0.name == "speakers" }
        #expect(speakers.map { SinkLevel(volume: $0.volume, isMuted: $0.isMuted) } == halfLevel, "put back")
        await manager.stop()
    }
}

extension ReadCountingServer: VolumeControllingServer {
    func setSinkMute(_ sink: String, muted: Bool) async throws { try await base.setSinkMute(sink, muted: muted) }
    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws { try await base.setSinkVolume(sink, volume) }
    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws { try await base.setSinkInputMute(sinkInput, muted: muted) }
}
