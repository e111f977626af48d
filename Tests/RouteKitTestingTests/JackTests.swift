import PulseAudio
import RouteKitTesting
import Testing

@Suite("Jacks: port availability on a laptop's card")
struct JackTests {
    @Test("a laptop card appears as card, sink with monitor, source, module, in PulseAudio's order")
    func laptopAppears() async throws {
        let server = SimulatedServer()
        let events = server.subscriptionEvents { _ = try? server.addCard(Fixtures.laptop) }
        #expect(events == [
            .new(.card, 0),
            .change(.sink, 0), .change(.source, 0), .new(.source, 0), .serverChange, .new(.sink, 0),
            .change(.source, 1), .new(.source, 1),
            .new(.module, 1),
        ])
        let sink = try #require(try await server.sink(named: Fixtures.laptopSink))
        #expect(sink.activePortName == "analog-output-speaker")
        #expect(sink.card == 0)
        #expect(sink.properties["device.bus"] == "pci")
        #expect(sink.properties["device.icon_name"] == "audio-card-pci")
        #expect(try await server.serverInfo().defaultSourceName == Fixtures.laptopSource)
        try await expectConsistent(server)
    }

    @Test("plugging headphones changes card, sink and source, and switches both to the jack's ports")
    func plugHeadphones() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        let events = try server.subscriptionEvents {
            try server.setJack(card: Fixtures.laptop.name, jack: "Headphone", plugged: true)
        }
        #expect(events == [.change(.card, 0), .change(.sink, 0), .change(.source, 1)])

        let card = try #require(try await server.card(named: Fixtures.laptop.name))
        let sink = try #require(try await server.sink(named: Fixtures.laptopSink))
        let source = try #require(try await server.source(named: Fixtures.laptopSource))
        #expect(card.ports.first { $0.name == "analog-output-headphones" }?.availability == .available)
        #expect(card.ports.first { $0.name == "analog-output-speaker" }?.availability == .unavailable)
        #expect(sink.ports.first { $0.name == "analog-output-headphones" }?.availability == .available)
        #expect(sink.activePortName == "analog-output-headphones")
        #expect(sink.activePort?.type == .headphones)
        #expect(source.activePortName == "analog-input-headset-mic")
        try await expectConsistent(server)
    }

    @Test("unplugging them switches back to the speakers and the internal microphone")
    func unplugHeadphones() async throws {
        let server = SimulatedServer()
        try server.addCard(.laptopAnalog(headphonesPlugged: true))
        #expect(try await server.sink(named: Fixtures.laptopSink)?.activePortName == "analog-output-headphones")
        let events = try server.subscriptionEvents {
            try server.setJack(card: Fixtures.laptop.name, jack: "Headphone", plugged: false)
        }
        #expect(events == [.change(.card, 0), .change(.sink, 0), .change(.source, 1)])
        let sink = try #require(try await server.sink(named: Fixtures.laptopSink))
        #expect(sink.activePortName == "analog-output-speaker")
        #expect(sink.ports.first { $0.name == "analog-output-headphones" }?.availability == .unavailable)
        #expect(try await server.source(named: Fixtures.laptopSource)?.activePortName == "analog-input-internal-mic")
        try await expectConsistent(server)
    }

    @Test("without port switching, an unplugged active port hands the default and its streams to another sink")
    func unplugWithoutPortSwitching() async throws {
        let server = SimulatedServer(options: .init(switchesPortsOnAvailabilityChange: false))
        try server.addCard(.laptopAnalog(headphonesPlugged: true))
        try server.addCard(Fixtures.hdmi)
        let laptop = try await server.sinkIndex(Fixtures.laptopSink)
        let hdmi = try await server.sinkIndex(Fixtures.hdmiSink)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.laptopSink)
        let stream = try server.addSinkInput()

        let events = try server.subscriptionEvents {
            try server.setJack(card: Fixtures.laptop.name, jack: "Headphone", plugged: false)
        }
        #expect(events == [
            .change(.card, 0), .change(.sink, laptop), .serverChange, .change(.sink, hdmi), .change(.sinkInput, stream.index),
            .change(.source, try await server.sourceIndex(Fixtures.laptopSource)),
        ])
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.hdmiSink)
        #expect(try await server.sinkInput(at: stream.index)?.sink == hdmi)
        #expect(try await server.sink(named: Fixtures.laptopSink)?.activePortName == "analog-output-headphones")
        try await expectConsistent(server)
    }

    @Test("one port can change on its own, or with its availability group")
    func portsAndGroups() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.setPortAvailability(card: Fixtures.laptop.name, port: "analog-output-headphones", .available,
                                       includingGroup: false)
        var card = try #require(try await server.card(named: Fixtures.laptop.name))
        #expect(card.ports.first { $0.name == "analog-input-headset-mic" }?.availability == .unavailable)
        try server.setPortAvailability(card: Fixtures.laptop.name, port: "analog-output-headphones", .available)
        card = try #require(try await server.card(named: Fixtures.laptop.name))
        #expect(card.ports.first { $0.name == "analog-input-headset-mic" }?.availability == .available)
        #expect(card.ports.first { $0.name == "analog-output-headphones" }?.availabilityGroup == "Legacy 1")
        // A change to the same availability is no change at all.
        let events = try server.subscriptionEvents {
            try server.setPortAvailability(card: Fixtures.laptop.name, port: "analog-output-headphones", .available)
        }
        #expect(events.isEmpty)
        try await expectConsistent(server)
    }

    @Test("an HDMI monitor unplugged takes its profile to off; plugged back, the sink returns")
    func hdmiUnplugAndReplug() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.hdmi)
        let hdmi = try await server.sinkIndex(Fixtures.hdmiSink)
        let monitor = try await server.sourceIndex(Fixtures.hdmiSink + ".monitor")
        let card = try #require(try await server.card(named: Fixtures.hdmi.name)).index

        let unplugged = try server.subscriptionEvents {
            try server.setJack(card: Fixtures.hdmi.name, jack: "HDMI/DP,pcm=3", plugged: false)
        }
        #expect(unplugged == [.change(.card, card), .remove(.source, monitor), .remove(.sink, hdmi)])
        #expect(try await server.card(named: Fixtures.hdmi.name)?.activeProfileName == "off")
        #expect(try await server.sink(named: Fixtures.hdmiSink) == nil)

        let plugged = try server.subscriptionEvents {
            try server.setJack(card: Fixtures.hdmi.name, jack: "HDMI/DP,pcm=3", plugged: true)
        }
        let newSink = try await server.sinkIndex(Fixtures.hdmiSink)
        let newMonitor = try await server.sourceIndex(Fixtures.hdmiSink + ".monitor")
        #expect(plugged == [
            .change(.card, card), .change(.sink, newSink), .change(.source, newMonitor), .new(.source, newMonitor),
            .new(.sink, newSink),
        ])
        #expect(try await server.card(named: Fixtures.hdmi.name)?.activeProfile?.isAvailable == true)
        try await expectConsistent(server)
    }
}
