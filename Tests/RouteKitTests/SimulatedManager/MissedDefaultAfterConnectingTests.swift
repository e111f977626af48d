import ConcurrencySupport
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// A change of the default that the manager's connection never hears of, in the moments after
/// it connects to pipewire-pulse (a login: WirePlumber choosing defaults as devices appear,
/// desktop clients connecting; Docs/Reliability.md, "The PipeWire default that never reaches
/// long-lived connections"). Real servers miss one only now and then; the simulated server
/// misses one when the test says so.
@Suite("AudioDeviceManager on pipewire-pulse: a default changed unheard after connecting")
struct MissedDefaultAfterConnectingTests {
    private typealias Scenario = HeadsetOverUSBScenario

    @Test("read again on a renewed connection and put back, at start and after a reconnection", .timeLimit(.minutes(1)))
    func putBackAfterTheRecheck() async throws {
        let simulated = try Scenario.server(serverName: "PulseAudio (on PipeWire 1.4.2)")
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        let headsetSink = try #require(try simulated.serverInfoAfresh().defaultSinkName)

        for moment in ["after start", "after the server restarted"] {
            let renewals = server.renewals
            // Someone else moves the default to the speaker while a client connects: the
            // server's default moves, the manager's connection hears nothing.
            let events = simulated.events()
            try simulated.simulateMissedDefaultSink(Scenario.laptopSink)
            #expect(try simulated.serverInfoAfresh().defaultSinkName == Scenario.laptopSink, "\(moment)")
            #expect(try await simulated.serverInfo().defaultSinkName == headsetSink, "the connection missed it, \(moment)")

            // The manager reads the defaults again on a renewed connection and puts its route back.
            try await withTimeout("the headset the default again, \(moment)", .seconds(8)) {
                for await _ in events where try simulated.serverInfoAfresh().defaultSinkName == headsetSink { return }
                throw TimedOut(what: "the headset the default again (the stream ended)")
            }
            #expect(server.renewals > renewals, "renewed \(moment)")
            #expect(await log.failures.isEmpty)
            #expect(manager.selectedAudioDevice?.id == Scenario.headsetID)

            if moment == "after start" {
                let mark = await log.count
                simulated.simulateServerRestart()
                _ = try await log.waitForRoute(to: Scenario.headsetID, after: mark)
            }
        }
        await manager.stop()
    }
}

/// A ``SimulatedServer`` that counts the renewals of its connection.
final class RenewalCountingServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    private let count = LockedValue(0)

    init(_ base: SimulatedServer) { self.base = base }

    /// How many times the connection was renewed.
    var renewals: Int { count.withLock { $0 } }

    func renewConnection() async throws {
        count.withLock { $0 += 1 }
        try await base.renewConnection()
    }
}
