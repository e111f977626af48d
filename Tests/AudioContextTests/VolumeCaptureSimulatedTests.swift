import AudioContext
import PulseAudio
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
