import PulseAudio
import RouteKitTesting
import TestSupport
import Testing

/// The simulated server's PipeWire miss (Docs/Reliability.md, "The PipeWire default that never
/// reaches long-lived connections"): a change of the default this connection never hears of.
@Suite("A change of the default the connection misses")
struct MissedDefaultTests {
    @Test("unheard and unread until a renewal, which reads it and says so with a server event")
    func missedUntilRenewed() async throws {
        let server = SimulatedServer(serverName: "PulseAudio (on PipeWire 1.4.2)", serverVersion: "15.0.0")
        defer { server.shutdown() }
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        try await server.setDefaultSink(Fixtures.a2dpSink)
        let events = server.events()

        try server.simulateMissedDefaultSink(Fixtures.laptopSink)
        #expect(try server.serverInfoAfresh().defaultSinkName == Fixtures.laptopSink)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink, "this connection kept the old default")
        #expect(throws: PulseError.self) { try server.simulateMissedDefaultSink("no_such_sink") }

        try await server.renewConnection()
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.laptopSink)
        let told = try await firstEvent("the renewal's server event", in: events) {
            if case .subscription(let change) = $0 { change.facility == .server } else { false }
        }
        #expect(told == .subscription(SubscriptionEvent(facility: .server, kind: .change, index: UInt32.max)),
                "a missed change sends no server event of its own: the renewal's is the first")
    }

    @Test("the next change of a default reaches a connection that missed one")
    func nextChangeHeals() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        try server.addCard(Fixtures.laptop)
        try server.addCard(Fixtures.headset)
        try await server.setDefaultSink(Fixtures.a2dpSink)
        try server.simulateMissedDefaultSink(Fixtures.laptopSink)
        try await server.setDefaultSink(Fixtures.a2dpSink)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.a2dpSink)
        try await server.setDefaultSink(Fixtures.laptopSink)
        #expect(try await server.serverInfo().defaultSinkName == Fixtures.laptopSink)
    }
}
