import TestSupport
import PulseAudio
import RouteKitTesting
import Testing

@Suite("Commands: PulseAudio's answers and scripted failures")
struct CommandTests {
    private func server() throws -> SimulatedServer {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addSink(DeviceBlueprint(name: "null"))
        return server
    }

    @Test("unknown names are noSuchEntity, worded as PulseClient words them")
    func unknownNames() async throws {
        let server = try server()
        await #expect(throws: PulseError(.noSuchEntity, operation: "set default sink to \"x\"")) {
            try await server.setDefaultSink("x")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "set default source to \"x\"")) {
            try await server.setDefaultSource("x")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "move sink input #7 to sink \"null\"")) {
            try await server.moveSinkInput(7, toSink: "null")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "set profile of card \"x\" to \"off\"")) {
            try await server.setCardProfile("x", profile: "off")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "set profile of card \"\(Fixtures.laptop.name)\" to \"x\"")) {
            try await server.setCardProfile(Fixtures.laptop.name, profile: "x")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "set port of sink \"\(Fixtures.laptopSink)\" to \"x\"")) {
            try await server.setSinkPort(Fixtures.laptopSink, port: "x")
        }
        await #expect(throws: PulseError(.noSuchEntity, operation: "mute sink \"x\"")) {
            try await server.setSinkMute("x", muted: true)
        }
    }

    @Test("invalid names are invalidArgument; a device without ports has no port to set")
    func invalidRequests() async throws {
        let server = try server()
        await #expect(throws: PulseError(.invalidArgument, operation: "set default sink to \"a b\"")) {
            try await server.setDefaultSink("a b")
        }
        await #expect(throws: PulseError(.invalidArgument, operation: "set default sink to \"@DEFAULT_SINK@\"")) {
            try await server.setDefaultSink("@DEFAULT_SINK@")
        }
        var thrown: PulseError?
        do { try await server.setSinkPort("null", port: "x") } catch { thrown = error as? PulseError }
        #expect(thrown?.code.rawValue == 23)
        #expect(thrown?.reason == "Missing implementation")
        await #expect(throws: PulseError(.invalidArgument, operation: "set volume of sink \"null\" to 50% 50% 50%")) {
            try await server.setSinkVolume("null", ChannelVolumes(channelCount: 3, percent: 50))
        }
    }

    @Test("names work as PulseAudio resolves them: indexes and the default wildcards")
    func nameResolution() async throws {
        let server = try server()
        let null = try await server.sinkIndex("null")
        try await server.setDefaultSink(String(null))
        #expect(try await server.serverInfo().defaultSinkName == "null")
        try await server.setSinkMute("@DEFAULT_SINK@", muted: true)
        #expect(try await server.sink(named: "null")?.isMuted == true)
        try await server.setSinkVolume("null", ChannelVolumes([ChannelVolumes.normal / 2]))
        let half = ChannelVolumes(channelCount: 2, volume: ChannelVolumes.normal / 2)
        #expect(try await server.sink(named: "null")?.volume == half)
        try await server.setSinkPort(Fixtures.laptopSink, port: "analog-output-headphones")
        #expect(try await server.sink(named: Fixtures.laptopSink)?.activePortName == "analog-output-headphones")
        try await expectConsistent(server)
    }

    @Test("a port switch to an unavailable port loses the default to an available sink")
    func unavailablePortLosesDefault() async throws {
        let server = try server()
        try await server.setDefaultSink(Fixtures.laptopSink)
        let events = try await server.subscriptionEvents {
            try await server.setSinkPort(Fixtures.laptopSink, port: "analog-output-headphones")
        }
        #expect(events == [.change(.sink, try await server.sinkIndex(Fixtures.laptopSink)), .serverChange])
        #expect(try await server.serverInfo().defaultSinkName == "null")
    }

    @Test("failNextCommand fails the next command of its kind, once, and records it")
    func scriptedFailure() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.headset)
        server.failNextCommand(.setCardProfile, with: .notSupported)
        try await server.setDefaultSink(Fixtures.a2dpSink)
        let events = await server.subscriptionEvents {
            let refused = PulseError(.notSupported, operation: "set profile of card \"\(Fixtures.headset.name)\" to \"off\"")
            await #expect(throws: refused) {
                try await server.setCardProfile(Fixtures.headset.name, profile: "off")
            }
        }
        #expect(events.isEmpty)
        #expect(try await server.card(named: Fixtures.headset.name)?.activeProfileName == "a2dp_sink")
        try await server.setCardProfile(Fixtures.headset.name, profile: "off")
        #expect(try await server.card(named: Fixtures.headset.name)?.activeProfileName == "off")
        #expect(server.receivedCommands == [
            .setDefaultSink(Fixtures.a2dpSink),
            .setCardProfile(Fixtures.headset.name, profile: "off"),
            .setCardProfile(Fixtures.headset.name, profile: "off"),
        ])
    }

    @Test("a device that vanishes mid-switch: the side effect runs, its events arrive, then the error")
    func vanishedMidSwitch() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        let events = server.events()
        server.failNextCommand(.setCardProfile, with: .noSuchEntity) { server in
            try? server.removeCard(named: Fixtures.headset.name)
        }
        await #expect(throws: PulseError.self) {
            try await server.setCardProfile(Fixtures.headset.name, profile: "headset_head_unit")
        }
        let removal = try await firstEvent("the card's removal", in: events) {
            $0 == .subscription(.remove(.card, 1))
        }
        #expect(removal == .subscription(.remove(.card, 1)))
        #expect(try await server.cards().count == 1)
        try await expectConsistent(server)
    }
}
