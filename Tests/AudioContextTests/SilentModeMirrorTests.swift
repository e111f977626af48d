import AudioContext
import PulseAudio
import RouteKit
import RouteKitTesting
import Testing

/// Silent mode beside a running manager: computed from the manager's mirror of the server,
/// with no read of its own (the manager's one lookup per changed object is all the server
/// answers).
@Suite("Silent mode from the manager's mirror")
struct SilentModeMirrorTests {
    @Test("the default sink muted: silent mode follows, and the server answers the manager's one lookup alone")
    func readsNothingOfItsOwn() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        _ = try simulated.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        try await simulated.setDefaultSink("speaker")
        let server = ReadCountingServer(simulated)
        let manager = AudioDeviceManager(server: server)
        try await manager.start()
        let monitor = SilentModeMonitor(manager: manager, logger: ContextRig.logger)
        #expect(try await monitor.current() == .audible(sink: "speaker"))
        var changes = monitor.changes().makeAsyncIterator()
        #expect(await changes.next() == .audible(sink: "speaker"))
        let before = server.reads

        try await simulated.setSinkMute("speaker", muted: true)
        #expect(await changes.next() == .silent(sink: "speaker", reasons: .muted))
        #expect(server.reads == ReadCount(serverInfo: before.serverInfo, lists: before.lists, lookups: before.lookups + 1),
                "the manager's lookup of the changed sink, nothing more")

        // Another sink's change is nothing to silent mode.
        try await simulated.setSinkMute("headset", muted: true)
        try await simulated.setSinkMute("speaker", muted: false)
        #expect(await changes.next() == .audible(sink: "speaker"))

        await manager.stop()
        #expect(await changes.next() == nil, "the manager stopped: the changes end")
        #expect(try await monitor.current() == .unknown)
    }
}
