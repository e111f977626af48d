import Logging
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// ACB's scenarios with what virtual devices cannot show: a laptop's jack and ports, and
/// Bluetooth headsets as cards with A2DP and headset profiles.
@Suite("AudioDeviceManager on the simulated server: scenarios")
struct SimulatedScenarioTests {
    static let laptop = "alsa_card.pci-0000_00_1f.3"
    static let speaker = AudioDevice.ID(rawValue: "\(laptop)/analog-output-speaker")
    static let headphones = AudioDevice.ID(rawValue: "\(laptop)/analog-output-headphones")
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let firstHeadset = CardBlueprint.bluetoothHeadset(address: "00:1B:66:AA:BB:CC", name: "WH-1000XM4")
    static let secondHeadset = CardBlueprint.bluetoothHeadset(address: "00:1B:66:DD:EE:FF", name: "Jabra Evolve")
    static let firstHeadsetID = AudioDevice.ID(rawValue: "bluez_card.00_1B_66_AA_BB_CC/headset-output")
    static let secondHeadsetID = AudioDevice.ID(rawValue: "bluez_card.00_1B_66_DD_EE_FF/headset-output")

    @Test("ACB's four: no headset, a headset appears, it fails, another one is paired")
    func acbScenarios() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let music = try server.addSinkInput(StreamBlueprint(name: "Music"))
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()

        // 1. The call starts with no headset: the speaker and the built-in microphone.
        await manager.activateCallAudio()
        let first = try await log.waitForRoute(to: Self.speaker)
        #expect(first.reason == .started)
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)

        // 2. The headset is switched on: audio and the stream move to it, in its headset profile.
        var mark = await log.count
        _ = try server.addCard(Self.firstHeadset)
        let second = try await log.waitForRoute(to: Self.firstHeadsetID, after: mark)
        #expect(second.reason == .deviceAppeared)
        let hspSink = "bluez_sink.00_1B_66_AA_BB_CC.headset_head_unit"
        #expect(try await server.serverInfo().defaultSinkName == hspSink)
        #expect(try await server.serverInfo().defaultSourceName == "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit")
        #expect(try await server.sinkInput(at: music.index)?.sink == server.sink(named: hspSink)?.index)
        #expect(manager.selectedAudioDevice?.output?.deviceName == hspSink)

        // 3. The headset fails: back to the fallback.
        mark = await log.count
        try server.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC")
        let third = try await log.waitForRoute(to: Self.speaker, after: mark)
        #expect(third.reason == .deviceFailed)
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
        #expect(try await server.sinkInput(at: music.index)?.sink == server.sink(named: Self.laptopSink)?.index)

        // 4. Another headset is paired: audio moves to it.
        mark = await log.count
        _ = try server.addCard(Self.secondHeadset)
        let fourth = try await log.waitForRoute(to: Self.secondHeadsetID, after: mark)
        #expect(fourth.reason == .deviceAppeared)
        #expect(try await server.serverInfo().defaultSinkName == "bluez_sink.00_1B_66_DD_EE_FF.headset_head_unit")
        await manager.stop()
    }

    @Test("a jack unplugged falls back to the speaker; plugged again, the headphones win")
    func jackUnplugged() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog(headphonesPlugged: true))
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.wiredHeadset), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.headphones)
        #expect(try await server.sink(named: Self.laptopSink)?.activePortName == "analog-output-headphones")

        var mark = await log.count
        try server.setJack(card: Self.laptop, jack: "Headphone", plugged: false)
        let fallback = try await log.waitForRoute(to: Self.speaker, after: mark)
        #expect(fallback.reason == .deviceFailed)
        #expect(try await server.sink(named: Self.laptopSink)?.activePortName == "analog-output-speaker")
        #expect(try await server.source(named: "alsa_input.pci-0000_00_1f.3.analog-stereo")?.activePortName
                == "analog-input-internal-mic", "the input follows the output")

        mark = await log.count
        try server.setJack(card: Self.laptop, jack: "Headphone", plugged: true)
        let back = try await log.waitForRoute(to: Self.headphones, after: mark)
        #expect(back.reason == .deviceAppeared)
        #expect(try await server.sink(named: Self.laptopSink)?.activePortName == "analog-output-headphones")
        await manager.stop()
    }

    @Test("a port whose availability is unknown is used when nothing available matches")
    func unknownAvailability() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        // Unplugged: the headphones are unavailable, the speaker's availability is unknown.
        _ = try server.addCard(.laptopAnalog(headphonesPlugged: false))
        _ = try server.addCard(.usbHeadset())
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        let route = try await log.waitForRoute(to: Self.speaker)
        #expect(route.to?.availability == .unknown)
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
        await manager.stop()
    }

    @Test("two Bluetooth headsets: the newest wins a kind preference, an exact preference picks its own")
    func twoOfOneKind() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(Self.firstHeadset)
        _ = try server.addCard(Self.secondHeadset)
        // Neither headset carries the route yet (a headset in use would stay: it satisfies the
        // preference already).
        try await server.setDefaultSink(Self.laptopSink)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        // At start, the one the server announced last counts as the newest.
        _ = try await log.waitForRoute(to: Self.secondHeadsetID)

        // The first one reconnects: now it is the newest, and it wins.
        var mark = await log.count
        try server.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC")
        _ = try server.addCard(Self.firstHeadset)
        _ = try await log.waitForRoute(to: Self.firstHeadsetID, after: mark)
        #expect(try await server.serverInfo().defaultSinkName == "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink")

        // An exact preference picks its device whatever the order.
        mark = await log.count
        await manager.setPreferences([.device(Self.secondHeadsetID), .kind(.bluetooth)])
        let exact = try await log.waitForRoute(to: Self.secondHeadsetID, after: mark)
        #expect(exact.reason == .preferencesChanged)
        #expect(try await server.serverInfo().defaultSinkName == "bluez_sink.00_1B_66_DD_EE_FF.a2dp_sink")
        await manager.stop()
    }

    @Test("HDMI is never chosen by kind, and is chosen, with its profile, when named exactly")
    func hdmiOnlyWhenNamed() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.hdmi(connected: true))
        _ = try server.addCard(.laptopAnalog())
        try await server.setCardProfile("alsa_card.pci-0000_01_00.1", profile: "off")
        try await server.setDefaultSink(Self.laptopSink)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.wiredHeadset)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        // Nothing matches: the server's choice stands and nothing was asked of it.
        _ = try await log.waitForRoute(to: Self.speaker)
        let hdmi = try #require(try await manager.allDevices.first { $0.kind == .external })
        #expect(!server.receivedCommands.contains { $0.kind == .setDefaultSink || $0.kind == .setCardProfile }
                || server.receivedCommands.count == 2, "only the test's own two commands")

        let mark = await log.count
        await manager.setAudioDevice(.device(hdmi.id))
        _ = try await log.waitForRoute(to: hdmi.id, after: mark)
        #expect(try await server.card(named: "alsa_card.pci-0000_01_00.1")?.activeProfileName == "output:hdmi-stereo")
        #expect(try await server.serverInfo().defaultSinkName == "alsa_output.pci-0000_01_00.1.hdmi-stereo")
        await manager.stop()
        #expect(try await server.card(named: "alsa_card.pci-0000_01_00.1")?.activeProfileName == "off",
                "stop() puts the profile back")
        #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
    }

    @Test("a manual selection sticks while its device is present, and is dropped when it goes")
    func manualSelection() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.usbHeadset())
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.speaker)
        let usb = try #require(try await manager.audioDevices.first { $0.kind == .wiredHeadset })

        var mark = await log.count
        try await manager.select(usb.id)
        #expect((try await log.waitForRoute(to: usb.id, after: mark)).reason == .selectionChanged)
        // A preferred device appears: the selection still wins.
        _ = try server.addCard(Self.firstHeadset)
        try await log.wait("the headset listed") { events in
            events.contains { if case .devicesChanged(let devices) = $0 { devices.contains { $0.id == Self.firstHeadsetID } } else { false } }
        }
        await manager.refreshSpeakerphoneSetting()
        #expect(manager.selectedAudioDevice?.id == usb.id)
        #expect(manager.manualSelection == usb.id)

        // The selected device goes: the selection is dropped and the preferences apply.
        mark = await log.count
        try server.removeCard(named: try #require(usb.card))
        let after = try await log.waitForRoute(to: Self.firstHeadsetID, after: mark)
        #expect(after.reason == .deviceFailed)
        // Its sink may go a moment before its card: the selection goes with the card, once the
        // device is no longer listed.
        try await log.wait("the USB headset unlisted") { [mark] events in
            events.dropFirst(mark).contains { if case .devicesChanged(let devices) = $0 { !devices.contains { $0.id == usb.id } } else { false } }
        }
        #expect(manager.manualSelection == nil)
        #expect(manager.selectedAudioDevice?.id == Self.firstHeadsetID)

        await #expect(throws: SelectionError.noSuchDevice("nope")) { try await manager.select("nope") }
        await manager.stop()
    }
}
