import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// A device going is acted on as its removal arrives, without waiting for the lookups the
/// server's announcement of a moved default asked for: PulseAudio announces the default it
/// moved before the device it removes, and those lookups cost a round trip the fallback does
/// not need.
@Suite("AudioDeviceManager: a removal does not wait for lookups")
struct RemovalBeforeLookupsTests {
    private typealias Scenario = HeadsetOverUSBScenario

    @Test("the preferred headset goes while the server's answers are held: the fallback is asked for at once")
    func fallbackWhileLookupsAreHeld() async throws {
        let simulated = try Scenario.server()
        defer { simulated.shutdown() }
        let server = HeldAnswersServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())

        // Answers about the server (its defaults) are held from now on; a removal needs none.
        // The default moved with the removal asks for one, and the fallback must be asked for
        // while it is held: both are awaited, in whichever order the tasks reach the server.
        // (An engine that waited for the lookup would ask for nothing until the release.)
        let requests = server.holdServerInfo()
        try simulated.removeCard(named: Scenario.headsetCard)
        let asked = try await requests.next("the default asked for after the headset went", after: 0) {
            $0 != HeldAnswersServer.serverInfoRequest
        }
        #expect(asked == Scenario.laptopSink, "the fallback the preferences name")
        _ = try await requests.next("a lookup of the server held while the fallback was asked for", after: 0) {
            $0 == HeldAnswersServer.serverInfoRequest
        }

        let mark = await log.count
        server.releaseServerInfo()
        let fallback = try await log.waitForRoute(to: Scenario.speaker, after: mark - 1)
        #expect(fallback.reason == .deviceFailed)
        #expect(try await simulated.serverInfo().defaultSinkName == Scenario.laptopSink)
        #expect(await log.failures.isEmpty)
        await manager.stop()
    }
}

/// A ``SimulatedServer`` whose `serverInfo()` answers can be held back, and which records
/// the default sinks it is asked for while they are.
final class HeldAnswersServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    private let hold = AnswerHold()

    init(_ base: SimulatedServer) { self.base = base }

    /// Holds `serverInfo()` answers from now on; returns the default sinks asked for
    /// meanwhile, and ``serverInfoRequest`` for each lookup held.
    func holdServerInfo() -> RecordedEvents<String> { hold.start() }

    /// Lets every held answer go, and later ones through.
    func releaseServerInfo() { hold.release() }

    /// What ``holdServerInfo()`` records for a `serverInfo()` request.
    static let serverInfoRequest = "serverInfo()"

    func serverInfo() async throws -> ServerInfo {
        await hold.pass(asking: Self.serverInfoRequest)
        return try await base.serverInfo()
    }

    func setDefaultSink(_ sink: String) async throws {
        try await base.setDefaultSink(sink)
        await hold.record(sink)
    }
}
