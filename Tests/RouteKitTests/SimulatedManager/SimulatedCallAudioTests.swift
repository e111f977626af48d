import Logging
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// Call audio, failed switches and flapping devices, on the simulated server.
@Suite("AudioDeviceManager on the simulated server: calls, failures, flapping")
struct SimulatedCallAudioTests {
    static let card = "bluez_card.00_1B_66_AA_BB_CC"
    static let headset = AudioDevice.ID(rawValue: "\(card)/headset-output")
    static let speaker = SimulatedScenarioTests.speaker
    static let laptopSink = SimulatedScenarioTests.laptopSink
    static let laptopSource = "alsa_input.pci-0000_00_1f.3.analog-stereo"

    @Test("call audio moves the headset to HSP with its microphone, and ending it puts A2DP and the input back")
    func callAudioProfiles() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        let recording = try server.addSourceOutput(source: Self.laptopSource)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.headset)
        #expect(try await server.serverInfo().defaultSinkName == "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink")
        #expect(try await server.serverInfo().defaultSourceName == Self.laptopSource, "A2DP has no microphone")

        await manager.activateCallAudio()
        #expect(manager.isCallAudioActive)
        #expect(try await server.card(named: Self.card)?.activeProfileName == "headset_head_unit")
        let info = try await server.serverInfo()
        #expect(info.defaultSinkName == "bluez_sink.00_1B_66_AA_BB_CC.headset_head_unit")
        #expect(info.defaultSourceName == "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit", "the input follows the output")
        #expect(try await server.sourceOutput(at: recording.index)?.source
                == server.source(named: "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit")?.index)
        #expect(manager.selectedAudioDevice?.input?.deviceName == "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit")

        await manager.deactivateCallAudio()
        #expect(try await server.card(named: Self.card)?.activeProfileName == "a2dp_sink")
        let after = try await server.serverInfo()
        #expect(after.defaultSinkName == "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink")
        #expect(after.defaultSourceName == Self.laptopSource)
        #expect(manager.selectedAudioDevice?.id == Self.headset)
        await manager.stop()
    }

    @Test("a refused headset profile falls through to the next preference, reported with the server's reason")
    func profileRefused() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.headset)

        server.failNextCommand(.setCardProfile, with: .inputOutput)
        let mark = await log.count
        await manager.activateCallAudio()
        let change = try await log.waitForRoute(to: Self.speaker, after: mark)
        #expect(change.reason == .fellThrough)
        let failure = try #require(await log.failures.last)
        #expect(failure.device.id == Self.headset)
        #expect(failure.reason.step == .profile)
        #expect(failure.reason.code == .inputOutput)
        #expect(failure.reason.message.contains("headset_head_unit"))
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
        #expect(manager.selectedAudioDevice?.id == Self.speaker, "the route reported is the one in use")
        await manager.stop()
    }

    @Test("a device gone in the middle of a switch: the next preference, and the failure reported")
    func goneMidway() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.speaker)
        // The user's configured default: the server alone would not move to the headset.
        try await server.setDefaultSink(Self.laptopSink)

        // The headset appears, and vanishes while the manager makes it the default.
        server.failNextCommand(.setDefaultSink, with: .noSuchEntity) { server in
            try? server.removeCard(named: Self.card)
        }
        let mark = await log.count
        _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        try await log.wait("the failed switch") { events in events.dropFirst(mark).contains { if case .switchFailed = $0 { true } else { false } } }
        let failure = try #require(await log.failures.last)
        #expect(failure.device.id == Self.headset)
        #expect(failure.reason.step == .defaultSink)
        #expect(failure.reason.code == .noSuchEntity)
        await manager.refreshSpeakerphoneSetting()
        #expect(manager.selectedAudioDevice?.id == Self.speaker)
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
        #expect(!(await log.routeChanges.contains { $0.to?.id == Self.headset }), "never reported as the route")
        await manager.stop()
    }

    @Test("a headset flapping 100 times ends on the right device, never changing route more often than it flaps",
          arguments: [false, true])
    func flapping(endsConnected: Bool) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.speaker)
        var deviceChanges = 0
        for _ in 0..<100 {
            _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
            try server.removeCard(named: Self.card)
            deviceChanges += 2
            await Task.yield()
        }
        if endsConnected {
            _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
            deviceChanges += 1
        }
        let expected = endsConnected ? Self.headset : Self.speaker
        // A sentinel (a bare null sink: virtual, never chosen) marks the end of the storm:
        // once the manager lists it, it has seen every change before it.
        _ = try server.addSink(DeviceBlueprint(name: "sentinel"))
        try await log.wait("the storm's end") { events in
            events.contains { if case .devicesChanged(let devices) = $0 { devices.contains { $0.id == "sentinel" } } else { false } }
        }
        // No refresh: the manager must get there from the events alone. The sentinel came
        // after every change, but the manager's route can still be its earlier one while a
        // switch is under way (the headset's last removal, acted on before the lookups of the
        // batch that brings it back): settled is its route and the server's default together.
        let expectedSink = endsConnected ? "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink" : Self.laptopSink
        try await Self.waitUntilSettled(on: expected, sink: expectedSink, manager: manager, server: server)
        #expect(manager.selectedAudioDevice?.id == expected)
        #expect(try await server.serverInfo().defaultSinkName == expectedSink)
        let changes = await log.routeChanges.count
        #expect(changes <= deviceChanges + 1, "\(changes) route changes for \(deviceChanges) device changes")
        await manager.stop()
    }

    /// Waits until `manager`'s route is `device` and `server`'s default is `sink`, checking
    /// again at every event of either.
    static func waitUntilSettled(on device: AudioDevice.ID, sink: String, manager: AudioDeviceManager,
                                 server: SimulatedServer) async throws {
        let managerEvents = manager.events(), serverEvents = server.events()
        @Sendable func settled() -> Bool {
            manager.state.route?.id == device && (try? server.serverInfoAfresh().defaultSinkName) == sink
        }
        try await withTimeout("the route on \(device) with the server's default on \(sink)", .seconds(10)) {
            let (wakes, wake) = AsyncStream.makeStream(of: Void.self)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in managerEvents { wake.yield() } }
                group.addTask { for await _ in serverEvents { wake.yield() } }
                wake.yield()
                for await _ in wakes where settled() { break }
                group.cancelAll()
            }
        }
    }
}
