import ConcurrencySupport
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// `reconcileDefaultSink(seenElsewhere:)`: another client's view of the default sink against
/// the manager's, on a simulated server that misses a change of the default as pipewire-pulse
/// does (Docs/Reliability.md, "The PipeWire default that never reaches long-lived connections").
@Suite("AudioDeviceManager: a default its connection missed")
struct ReconcileDefaultSinkTests {
    private typealias Scenario = HeadsetOverUSBScenario

    @Test("told of a default it missed, the manager reads it on a renewed connection and puts its route back")
    func missedDefaultIsHealed() async throws {
        let simulated = try Scenario.server()
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        let headsetSink = try #require(try await simulated.serverInfo().defaultSinkName)

        // Someone else moves the default to the speaker while another client connects: the
        // manager's connection never hears of it, and the route stays where it believes it is.
        try simulated.simulateMissedDefaultSink(Scenario.laptopSink)
        #expect(try await simulated.serverInfo().defaultSinkName == headsetSink, "missed")

        await manager.reconcileDefaultSink(seenElsewhere: Scenario.laptopSink)
        // One renewal heals it; a second comes only when the switch back's confirmation is
        // late enough for its own recheck (seen once under an unbounded parallel run).
        #expect((1...2).contains(server.renewals), "renewed \(server.renewals) times")
        #expect(try simulated.serverInfoAfresh().defaultSinkName == headsetSink,
                "the preferred headset is the default again, as a client connecting now reads it")
        #expect(await log.failures.isEmpty)
        #expect(manager.selectedAudioDevice?.id == Scenario.headsetID)
        await manager.stop()
    }

    @Test("told of the default it knows, the manager renews nothing and changes nothing")
    func agreementChangesNothing() async throws {
        let simulated = try Scenario.server()
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        let headsetSink = try #require(try await simulated.serverInfo().defaultSinkName)
        let mark = await log.count

        await manager.reconcileDefaultSink(seenElsewhere: headsetSink)
        #expect(server.renewals == 0)
        #expect(await log.count == mark, "no event")
        #expect(try simulated.serverInfoAfresh().defaultSinkName == headsetSink)
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
