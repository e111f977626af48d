import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// `stop()` while a switch's request is out: the server may have applied it, its answer not
/// in yet. The restore must treat the default as the manager's (it asked for it), and put
/// back the one found at start: the daemon's SIGTERM right after the server showed its new
/// default left that default in place.
@Suite("AudioDeviceManager: stop while a switch's answer is out")
struct StopDuringSwitchTests {
    private typealias Scenario = HeadsetOverUSBScenario

    @Test("the headset set as the default, its answer not in when stop() comes: the default found at start is back",
          .timeLimit(.minutes(1)))
    func stopBeforeTheAnswer() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.usbHeadset())
        let found = try #require(try await simulated.sinks().first { $0.name != Scenario.laptopSink }?.name)
        try await simulated.setDefaultSink(found)
        let server = AppliedUnansweredServer(simulated)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)],
                                         logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Scenario.speaker)

        // The headset comes; the manager's request for it is applied, its answer held.
        var asked = server.answers.hold(once: true)
        _ = try simulated.addCard(.bluetoothHeadset())
        let headsetSink = await asked.next()
        #expect(try await simulated.serverInfo().defaultSinkName == headsetSink)

        await manager.stop()
        #expect(try await simulated.serverInfo().defaultSinkName == found, "the default found at start, back")
    }

    @Test("a port switched before the default's answer was cut short: stop() puts the port back too",
          .timeLimit(.minutes(1)))
    func portBeforeTheAnswer() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        // Headphones in the jack (their port active), a speaker the jack does not mute, and
        // the USB headset the default: the manager switches the port, then the default.
        _ = try simulated.addCard(.laptopAnalog(headphonesPlugged: true))
        try simulated.setPortAvailability(card: "alsa_card.pci-0000_00_1f.3", port: "analog-output-speaker", .unknown,
                                          includingGroup: false)
        _ = try simulated.addCard(.usbHeadset())
        let found = try #require(try await simulated.sinks().first { $0.name != Scenario.laptopSink }?.name)
        try await simulated.setDefaultSink(found)
        let server = AppliedUnansweredServer(simulated)
        var asked = server.answers.hold(once: true)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.speakerphone)], logger: .forTests())
        try await manager.start()
        #expect(await asked.next() == Scenario.laptopSink)
        #expect(try await simulated.sink(named: Scenario.laptopSink)?.activePortName == "analog-output-speaker")

        await manager.stop()
        #expect(try await simulated.sink(named: Scenario.laptopSink)?.activePortName == "analog-output-headphones",
                "the port the manager switched, back")
        #expect(try await simulated.serverInfo().defaultSinkName == found)
    }

    @Test("the headset's call profile selected, its answer not in when stop() comes: the profile found at start is back",
          .timeLimit(.minutes(1)))
    func profileBeforeTheAnswer() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        let card = "bluez_card.00_1B_66_AA_BB_CC"
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        let server = AppliedUnansweredServer(simulated)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)],
                                         logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: AudioDevice.ID(rawValue: "\(card)/headset-output"))

        // Call audio needs the headset's microphone: the manager selects its call profile,
        // which the server applies; the answer is held.
        var asked = server.profiles.hold(once: true)
        async let activated: Void = manager.activateCallAudio()
        #expect(await asked.next() == "\(card) headset_head_unit")
        #expect(try await simulated.card(named: card)?.activeProfileName == "headset_head_unit")

        await manager.stop()
        await activated
        #expect(try await simulated.card(named: card)?.activeProfileName == "a2dp_sink", "the profile found at start, back")
    }
}

/// A simulated server that applies set-default-sink and card profile requests and, once a gate
/// holds, leaves the next one unanswered until its task is cancelled (then it throws
/// `CancellationError`, as `PulseClient` does for a request whose task was cancelled after it
/// was sent).
final class AppliedUnansweredServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    /// Holds the next default sink's answer (``RequestGate/hold(once:)``), never to release it.
    let answers = RequestGate()
    /// Holds the next profile's answer, given as `card profile`.
    let profiles = RequestGate()

    init(_ base: SimulatedServer) { self.base = base }

    func setDefaultSink(_ sink: String) async throws {
        try await base.setDefaultSink(sink)
        guard await answers.pass(sink) else { throw CancellationError() }
    }

    func setCardProfile(_ card: String, profile: String) async throws {
        try await base.setCardProfile(card, profile: profile)
        guard await profiles.pass("\(card) \(profile)") else { throw CancellationError() }
    }
}
