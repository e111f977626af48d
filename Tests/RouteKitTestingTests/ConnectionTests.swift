import TestSupport
import PulseAudio
import RouteKit
import RouteKitTesting
import Testing

@Suite("The connection: event streams, disconnects, restarts, shutdown")
struct ConnectionTests {
    @Test("every events() stream gets every event, in the same order")
    func independentStreams() async throws {
        let server = SimulatedServer()
        let first = server.events()
        let second = server.events()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        let isLast: @Sendable (SubscriptionEvent) -> Bool = { $0 == .new(.module, 2) }
        let one = try await collectEvents("the first stream's events", from: first, through: isLast)
        let two = try await collectEvents("the second stream's events", from: second, through: isLast)
        #expect(one == two)
        #expect(one.first == .new(.card, 0))
    }

    @Test("scripting from many tasks at once: every stream sees the same order, and the state holds together")
    func concurrentScripting() async throws {
        let server = SimulatedServer()
        let first = server.events()
        let second = server.events()
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<20 {
                group.addTask {
                    _ = try? server.addSink(DeviceBlueprint(name: "sink\(number)"))
                    _ = try? server.addSinkInput(sink: "sink\(number)")
                    try? server.removeSink(named: "sink\(number)")
                }
            }
        }
        try server.addSink(DeviceBlueprint(name: "last"))
        let marker = SubscriptionEvent.new(.module, try #require(try await server.modules().last).index)
        let one = try await collectEvents("the first stream's events", from: first) { $0 == marker }
        let two = try await collectEvents("the second stream's events", from: second) { $0 == marker }
        #expect(one == two)
        #expect(one.filter { $0.facility == .sink && $0.kind == .new }.count == 21)
        #expect(one.filter { $0.facility == .sink && $0.kind == .remove }.count == 20)
        try await expectConsistent(server)
    }

    @Test("while disconnected, requests fail and changes are not announced; reconnecting says ready")
    func disconnectAndReconnect() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        let events = server.events()
        server.disconnect()
        let lost = try await firstEvent("the lost connection", in: events) {
            if case .connectionStateChanged(.reconnecting(attempt: 1, lastError: let error)) = $0 {
                return error.code == .connectionTerminated
            }
            return false
        }
        #expect(lost != .connectionStateChanged(.ready))
        await #expect(throws: PulseError.self) { try await server.sinks() }
        do {
            try await server.setDefaultSink(Fixtures.laptopSink)
        } catch let error as PulseError {
            #expect(error.code == .badState)
            #expect(error.operation == "set default sink to \"\(Fixtures.laptopSink)\"")
        }
        try server.addCard(Fixtures.headset)
        server.reconnect()
        let next = try await firstEvent("the next event", in: events) { _ in true }
        #expect(next == .connectionStateChanged(.ready))
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink)
    }

    @Test("a restart brings the same hardware back with new indexes, no streams and a new cookie")
    func restart() async throws {
        let server = SimulatedServer()
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        try await server.setCardProfile(Fixtures.headset.name, profile: "headset_head_unit")
        try await server.setDefaultSink(Fixtures.laptopSink)
        try server.addSinkInput()
        let before = try await server.serverInfo()
        let events = server.events()

        server.simulateServerRestart()
        let states = try await withTimeout("the connection states") {
            var states: [PulseEvent] = []
            for await event in events {
                states.append(event)
                if event == .connectionStateChanged(.ready) { return states }
            }
            return states
        }
        #expect(states.count == 2)
        let after = try await server.serverInfo()
        #expect(after.cookie != before.cookie)
        #expect(after.defaultSinkName == Fixtures.laptopSink)
        #expect(try await server.sinkInputs().isEmpty)
        #expect(try await server.clients().isEmpty)
        #expect(try await server.card(named: Fixtures.headset.name)?.activeProfileName == "headset_head_unit")
        #expect(try await server.sinks().map(\.index) == [0, 1])
        try await expectConsistent(server)
    }

    @Test("shutdown ends every stream with shutDown; later requests fail")
    func shutdown() async throws {
        let server = SimulatedServer()
        let events = server.events()
        server.shutdown()
        let last = try await withTimeout("the stream to end") {
            var last: PulseEvent?
            for await event in events { last = event }
            return last
        }
        #expect(last == .connectionStateChanged(.shutDown))
        await #expect(throws: PulseError(.connectionTerminated, operation: "list sinks", reason: "the client was shut down")) {
            try await server.sinks()
        }
        let late = server.events()
        let ended = try await withTimeout("a late stream to end") {
            for await _ in late { return false }
            return true
        }
        #expect(ended)
    }

    @Test("a server released without shutdown ends its event streams")
    func releasedServer() async throws {
        var server: SimulatedServer? = SimulatedServer()
        let events = try #require(server).events()
        server = nil
        let last = try await withTimeout("the stream to end") {
            var last: PulseEvent?
            for await event in events { last = event }
            return last
        }
        #expect(last == .connectionStateChanged(.shutDown))
        #expect(server == nil)
    }

    @Test("a SimulatedServer is an AudioServer")
    func audioServer() async throws {
        let simulated = SimulatedServer()
        try simulated.addCard(Fixtures.laptop)
        let server: any AudioServer = simulated
        #expect(try await server.sinks().map(\.name) == [Fixtures.laptopSink])
        try await server.setCardProfile(Fixtures.laptop.name, profile: "off")
        #expect(try await server.cards().first?.activeProfileName == "off")
    }
}
