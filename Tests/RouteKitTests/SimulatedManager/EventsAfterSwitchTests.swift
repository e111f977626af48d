import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// What the engine decides with a switch is published once the switch's request is answered:
/// subscribers woken first (a daemon's lines, its D-Bus properties, media pausing) would
/// compete with the switch for the CPU. Nothing is lost, and the order stays.
@Suite("AudioDeviceManager: events wait for the switch decided with them")
struct EventsAfterSwitchTests {
    private typealias Scenario = HeadsetOverUSBScenario

    @Test("the preferred headset goes: the devicesChanged decided with the fallback comes after its request is answered, then the route")
    func devicesAfterRequest() async throws {
        let simulated = try Scenario.server()
        defer { simulated.shutdown() }
        let server = HeldDefaultServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())

        // The server would fall back on the USB headset; the preferences name the speaker.
        let asked = server.holdSetDefaultSink()
        let mark = await log.count
        try simulated.removeCard(named: Scenario.headsetCard)
        let sink = try await asked.next("the fallback asked for as the default", after: 0) { _ in true }
        #expect(sink == Scenario.laptopSink)
        // The request is held: the devices without the headset are not published yet. (Other
        // device lists may still come from the start: the inputs are read after the outputs.)
        let withoutHeadset: @Sendable (AudioRouteEvent) -> Bool = { event in
            guard case .devicesChanged(let listed) = event else { return false }
            return !listed.contains { $0.id == Scenario.headsetID }
        }
        await #expect(throws: (any Error).self, "no devicesChanged without the headset while the switch's request waits") {
            try await log.next("devicesChanged while held", after: mark, timeout: .milliseconds(300), where: withoutHeadset)
        }

        server.releaseSetDefaultSink()
        _ = try await log.waitForRoute(to: Scenario.speaker, after: mark)
        let after = Array(await log.events.dropFirst(mark))
        let devices = after.firstIndex(where: withoutHeadset)
        let route = after.firstIndex { $0.routeTarget == .some(Scenario.speaker) }
        #expect(devices != nil, "published, once the request was answered")
        #expect(devices.flatMap { devices in route.map { devices < $0 } } == true, "devices before the route, as decided")
        #expect(try await simulated.serverInfo().defaultSinkName == Scenario.laptopSink)
        await manager.stop()
    }
}

/// A ``SimulatedServer`` whose set-default-sink requests can be held unanswered, recording the
/// sinks asked for.
final class HeldDefaultServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    private let hold = AnswerHold()

    init(_ base: SimulatedServer) { self.base = base }

    /// Holds set-default-sink requests from now on; returns the sinks asked for meanwhile.
    func holdSetDefaultSink() -> RecordedEvents<String> { hold.start() }

    /// Answers the held requests, and later ones at once.
    func releaseSetDefaultSink() { hold.release() }

    func setDefaultSink(_ sink: String) async throws {
        await hold.pass(asking: sink)
        try await base.setDefaultSink(sink)
    }
}
