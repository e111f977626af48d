import PulseAudio
import RouteKitTesting
import Testing

@Suite("Bluetooth headsets: connecting, switching profiles, refusing")
struct BluetoothTests {
    @Test("the preset looks as module-bluez5-device shows a headset")
    func preset() async throws {
        let server = SimulatedServer()
        let card = try server.addCard(Fixtures.headset)
        #expect(card.name == "bluez_card.00_1B_66_AA_BB_CC")
        #expect(card.driver == "module-bluez5-device.c")
        #expect(card.activeProfileName == "a2dp_sink")
        #expect(card.profiles.map(\.name) == ["a2dp_sink", "headset_head_unit", "off"])
        #expect(card.profiles.map(\.priority) == [40, 30, 0])
        #expect(card.profiles.map(\.sinkCount) == [1, 1, 0])
        #expect(card.profiles.map(\.sourceCount) == [0, 1, 0])
        #expect(card.ports.map(\.name) == ["headset-output", "headset-input"])
        #expect(card.ports.allSatisfy { $0.type == .headset })
        #expect(card.ports.first?.profileNames == ["a2dp_sink", "headset_head_unit"])
        #expect(card.ports.last?.profileNames == ["headset_head_unit"])
        #expect(card.properties["device.api"] == "bluez")

        let sink = try #require(try await server.sink(named: Fixtures.a2dpSink))
        #expect(sink.description == "WH-1000XM4")
        #expect(sink.properties["device.bus"] == "bluetooth")
        #expect(sink.properties["device.form_factor"] == "headset")
        #expect(sink.properties["bluetooth.protocol"] == "a2dp_sink")
        #expect(sink.activePortName == "headset-output")
        let monitor = try #require(try await server.source(named: Fixtures.a2dpSink + ".monitor"))
        #expect(monitor.description == "Monitor of WH-1000XM4")
        #expect(monitor.properties["device.class"] == "monitor")
        #expect(monitor.properties["device.bus"] == "bluetooth")
        try await expectConsistent(server)
    }

    @Test("a headset outranks the laptop, as PulseAudio's device priorities say")
    func headsetBecomesDefault() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        let laptop = try await server.sinkIndex(Fixtures.laptopSink)
        let stream = try server.addSinkInput()
        let events = server.subscriptionEvents { _ = try? server.addCard(Fixtures.headset) }
        // card new, the A2DP sink and its monitor, the default moves and takes the stream along, module new.
        #expect(events == [
            .new(.card, 1), .change(.sink, 1), .change(.source, 2), .new(.source, 2), .new(.sink, 1), .serverChange,
            .change(.sink, laptop), .change(.sinkInput, stream.index), .new(.module, 2),
        ])
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink)
        #expect(try await server.sinkInput(at: stream.index)?.sink == 1)
        try await expectConsistent(server)
    }

    @Test("a2dp_sink → headset_head_unit replaces the sink, adds the microphone, and the stream follows")
    func switchToHeadsetProfile() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        let laptop = try await server.sinkIndex(Fixtures.laptopSink)
        let a2dp = try await server.sinkIndex(Fixtures.a2dpSink)
        let a2dpMonitor = try await server.sourceIndex(Fixtures.a2dpSink + ".monitor")
        let card = try #require(try await server.card(named: Fixtures.headset.name)).index
        let stream = try server.addSinkInput(StreamBlueprint(properties: ["media.role": "music"]))
        #expect(stream.sink == a2dp)

        let events = try await server.subscriptionEvents {
            try await server.setCardProfile(Fixtures.headset.name, profile: "headset_head_unit")
        }
        let sink = try await server.sinkIndex(Fixtures.headsetSink)
        let monitor = try await server.sourceIndex(Fixtures.headsetSink + ".monitor")
        let microphone = try await server.sourceIndex(Fixtures.headsetSource)
        // module-bluez5-device's stop_thread: the A2DP sink goes (its stream is rescued to the
        // laptop), then the headset sink and microphone are put (the stream follows the new
        // default back), then pa_card_set_profile posts the card's change.
        #expect(events == [
            .serverChange, .change(.sink, laptop), .change(.sinkInput, stream.index),
            .remove(.source, a2dpMonitor), .remove(.sink, a2dp),
            .change(.sink, sink), .change(.source, monitor), .new(.source, monitor), .new(.sink, sink),
            .change(.source, microphone), .new(.source, microphone),
            .change(.card, card),
        ])
        let info = try await server.serverInfo()
        #expect(info.defaultSinkName == Fixtures.headsetSink)
        #expect(info.defaultSourceName == Fixtures.headsetSource)
        #expect(try await server.sinkInput(at: stream.index)?.sink == sink)
        #expect(try await server.card(named: Fixtures.headset.name)?.activeProfileName == "headset_head_unit")
        let source = try #require(try await server.source(named: Fixtures.headsetSource))
        #expect(source.activePortName == "headset-input")
        #expect(source.properties["device.intended_roles"] == "phone")
        try await expectConsistent(server)

        // And back: the microphone goes, A2DP returns.
        try await server.setCardProfile(Fixtures.headset.name, profile: "a2dp_sink")
        #expect(try await server.source(named: Fixtures.headsetSource) == nil)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink)
        #expect(try await server.serverInfo().defaultSourceName == Fixtures.laptopSource)
        try await expectConsistent(server)
    }

    @Test("switching to off removes the sink; its stream goes to the laptop")
    func switchOff() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        let stream = try server.addSinkInput()
        try await server.setCardProfile(Fixtures.headset.name, profile: "off")
        #expect(try await server.sinks().map(\.name) == [Fixtures.laptopSink])
        #expect(try await server.sinkInput(at: stream.index)?.sink == server.sinkIndex(Fixtures.laptopSink))
        try await expectConsistent(server)
    }

    @Test("an unavailable profile is refused with PA_ERR_IO, and nothing changes")
    func refusedProfile() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.headset)
        try server.setProfileAvailability(card: Fixtures.headset.name, profile: "headset_head_unit", false)
        #expect(try await server.card(named: Fixtures.headset.name)?.profiles[1].isAvailable == false)

        var thrown: PulseError?
        let events = await server.subscriptionEvents {
            do {
                try await server.setCardProfile(Fixtures.headset.name, profile: "headset_head_unit")
            } catch {
                thrown = error as? PulseError
            }
        }
        let error = try #require(thrown)
        #expect(error.code.rawValue == 25)
        #expect(error.reason == "Input/Output error")
        #expect(error.operation == "set profile of card \"bluez_card.00_1B_66_AA_BB_CC\" to \"headset_head_unit\"")
        #expect(events.isEmpty)
        #expect(try await server.card(named: Fixtures.headset.name)?.activeProfileName == "a2dp_sink")
        #expect(try await server.sink(named: Fixtures.a2dpSink) != nil)
    }

    @Test("an ALSA card accepts an unavailable profile, as module-alsa-card does")
    func alsaAcceptsUnavailableProfile() async throws {
        let server = SimulatedServer()
        try server.addCard(.hdmi(connected: false))
        #expect(try await server.card(named: Fixtures.hdmi.name)?.activeProfileName == "off")
        try await server.setCardProfile(Fixtures.hdmi.name, profile: "output:hdmi-stereo")
        #expect(try await server.sink(named: Fixtures.hdmiSink)?.activePort?.availability == .unavailable)
        try await expectConsistent(server)
    }

    @Test("the active profile becoming unavailable switches the card to its best available profile")
    func activeProfileLost() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.headset)
        try server.setProfileAvailability(card: Fixtures.headset.name, profile: "a2dp_sink", false)
        let card = try #require(try await server.card(named: Fixtures.headset.name))
        #expect(card.activeProfileName == "headset_head_unit")
        #expect(try await server.sink(named: Fixtures.headsetSink) != nil)
        try await expectConsistent(server)
    }

    @Test("an ALSA profile switch keeps the sink both profiles share and moves the recording elsewhere")
    func alsaProfileSwitch() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.usb)
        try await server.setDefaultSource(Fixtures.laptopSource)
        let laptopSource = try await server.sourceIndex(Fixtures.laptopSource)
        let usbSource = try #require(try await server.sources().first { $0.name.hasPrefix("alsa_input.usb") }).index
        let recording = try server.addSourceOutput(source: Fixtures.laptopSource)
        let laptopSink = try await server.sinkIndex(Fixtures.laptopSink)

        let events = try await server.subscriptionEvents {
            try await server.setCardProfile(Fixtures.laptop.name, profile: "output:analog-stereo")
        }
        #expect(events == [
            .serverChange, .remove(.source, laptopSource),
            .change(.source, usbSource), .change(.sourceOutput, recording.index),
            .change(.card, 0),
        ])
        #expect(try await server.sinkIndex(Fixtures.laptopSink) == laptopSink)
        #expect(try await server.sourceOutput(at: recording.index)?.source == usbSource)
        try await expectConsistent(server)
    }
}
