import PulseAudio
import RouteKitTesting
import Testing

@Suite("Devices disappearing: cards unplugged, sinks failing")
struct CardRemovalTests {
    @Test("removing a Bluetooth card removes its sink and monitor, and moves its streams to the default")
    func removeHeadset() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        let headset = try server.addCard(Fixtures.headset)
        let laptop = try await server.sinkIndex(Fixtures.laptopSink)
        let a2dp = try await server.sinkIndex(Fixtures.a2dpSink)
        let monitor = try await server.sourceIndex(Fixtures.a2dpSink + ".monitor")
        let stream = try server.addSinkInput()
        #expect(stream.sink == a2dp)

        let events = try server.subscriptionEvents { try server.removeCard(named: Fixtures.headset.name) }
        #expect(events == [
            .serverChange, .change(.sink, laptop), .change(.sinkInput, stream.index),
            .remove(.source, monitor), .remove(.sink, a2dp), .remove(.card, headset.index),
            .remove(.module, try #require(headset.ownerModule)),
        ])
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.laptopSink)
        #expect(try await server.sinkInput(at: stream.index)?.sink == laptop)
        #expect(try await server.cards().map(\.name) == [Fixtures.laptop.name])
        try await expectConsistent(server)
    }

    @Test("a headset in its headset profile takes its microphone along; a recording moves to the laptop")
    func removeHeadsetWithMicrophone() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(.bluetoothHeadset(activeProfile: "headset_head_unit"))
        let microphone = try await server.sourceIndex(Fixtures.headsetSource)
        #expect(try await server.serverInfo().defaultSourceName == Fixtures.headsetSource)
        let call = try server.addSourceOutput(StreamBlueprint(name: "Call", properties: ["media.role": "phone"]))
        #expect(call.source == microphone)

        try server.removeCard(named: Fixtures.headset.name)
        let laptopSource = try await server.sourceIndex(Fixtures.laptopSource)
        #expect(try await server.sourceOutput(at: call.index)?.source == laptopSource)
        #expect(try await server.serverInfo().defaultSourceName == Fixtures.laptopSource)
        try await expectConsistent(server)
    }

    @Test("with nowhere to go, streams are killed; a client connected for the stream then leaves")
    func lastDeviceGone() async throws {
        let server = SimulatedServer()
        let card = try server.addCard(Fixtures.headset)
        let stream = try server.addSinkInput()
        let client = try #require(stream.client)
        let events = try server.subscriptionEvents { try server.removeCard(named: Fixtures.headset.name) }
        #expect(events == [
            .serverChange, .remove(.sinkInput, stream.index), .remove(.source, 0), .remove(.sink, 0),
            .remove(.card, card.index), .remove(.module, try #require(card.ownerModule)), .remove(.client, client),
        ])
        #expect(try await server.sinkInputs().isEmpty)
        #expect(try await server.clients().isEmpty)
        #expect(try await server.serverInfo().defaultSinkName == nil)
        try await expectConsistent(server)
    }

    @Test("a stream pinned to a removed device returns when it comes back")
    func pinnedStreamReturns() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.usb)
        try await server.setDefaultSink(Fixtures.laptopSink)
        let usbSink = try #require(try await server.sinks().first { $0.name.hasPrefix("alsa_output.usb") }).name
        let stream = try server.addSinkInput()
        try await server.moveSinkInput(stream.index, toSink: usbSink)

        try server.removeCard(named: Fixtures.usb.name)
        #expect(try await server.sinkInput(at: stream.index)?.sink == server.sinkIndex(Fixtures.laptopSink))
        try server.addCard(Fixtures.usb)
        #expect(try await server.sinkInput(at: stream.index)?.sink == server.sinkIndex(usbSink))
        try await expectConsistent(server)
    }

    @Test("a simple sink fails and comes back; the default follows priority")
    func simpleSinks() async throws {
        let server = SimulatedServer()
        try server.addSink(DeviceBlueprint(name: "speaker", description: "Speaker",
                                           properties: ["device.form_factor": "internal"]))
        let headset = try server.addSink(DeviceBlueprint(name: "bt", properties: ["device.bus": "bluetooth",
                                                                                     "device.form_factor": "headset"]))
        #expect(headset.properties["device.icon_name"] == "audio-headset-bluetooth")
        #expect(headset.properties["device.intended_roles"] == "phone")
        #expect(headset.driver == "module-null-sink.c")
        #expect(try await server.serverInfo().defaultSinkName == "bt")
        try server.removeSink(named: "bt")
        #expect(try await server.serverInfo().defaultSinkName == "speaker")
        #expect(throws: SimulationError.self) { try server.removeSink(named: "bt") }
        try await expectConsistent(server)
    }

    @Test("every preset together: the default follows PulseAudio's priorities as devices go")
    func priorities() async throws {
        let server = SimulatedServer()
        for card in [Fixtures.hdmi, Fixtures.laptop, Fixtures.usb, Fixtures.headset] {
            try server.addCard(card)
        }
        try await expectConsistent(server)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink)
        try server.removeCard(named: Fixtures.headset.name)
        #expect(try await server.serverInfo().defaultSinkName?.hasPrefix("alsa_output.usb") == true)
        #expect(try await server.serverInfo().defaultSourceName?.hasPrefix("alsa_input.usb") == true)
        try server.removeCard(named: Fixtures.usb.name)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.laptopSink)
        try server.removeCard(named: Fixtures.laptop.name)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.hdmiSink)
        try await expectConsistent(server)
    }
}
