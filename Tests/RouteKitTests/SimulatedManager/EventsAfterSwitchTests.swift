import PulseAudio
import RouteKit
import RouteKitTesting
import Synchronization
import TestSupport
import Testing

/// What the engine decides with a switch is published once the switch's request is answered:
/// subscribers woken first (a daemon's lines, its D-Bus properties, media pausing) would
/// compete with the switch for the CPU. Nothing is lost, and the order stays.
@Suite("AudioDeviceManager: events wait for the switch decided with them")
struct EventsAfterSwitchTests {
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let speaker = AudioDevice.ID(rawValue: "alsa_card.pci-0000_00_1f.3/analog-output-speaker")
    static let headsetID = AudioDevice.ID(rawValue: "bluez_card.00_1B_66_AA_BB_CC/headset-output")

    @Test("the preferred headset goes: the devicesChanged decided with the fallback comes after its request is answered, then the route")
    func devicesAfterRequest() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.usbHeadset())
        _ = try simulated.addCard(.bluetoothHeadset())
        let server = HeldDefaultServer(simulated)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.headsetID)

        // The server would fall back on the USB headset; the preferences name the speaker.
        let asked = server.holdSetDefaultSink()
        let mark = await log.count
        try simulated.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC")
        let sink = try await asked.next("the fallback asked for as the default", after: 0) { _ in true }
        #expect(sink == Self.laptopSink)
        // The request is held: the devices the headset's departure changed are not published yet.
        await #expect(throws: (any Error).self, "no devicesChanged while the switch's request waits") {
            try await log.next("devicesChanged while held", after: mark, timeout: .milliseconds(300)) { event in
                if case .devicesChanged = event { true } else { false }
            }
        }

        server.releaseSetDefaultSink()
        _ = try await log.waitForRoute(to: Self.speaker, after: mark)
        let after = Array(await log.events.dropFirst(mark))
        let devices = after.firstIndex { if case .devicesChanged = $0 { true } else { false } }
        let route = after.firstIndex { $0.routeTarget == .some(Self.speaker) }
        #expect(devices != nil, "published, once the request was answered")
        #expect(devices.flatMap { devices in route.map { devices < $0 } } == true, "devices before the route, as decided")
        if case .devicesChanged(let listed)? = devices.map({ after[$0] }) {
            #expect(!listed.contains { $0.id == Self.headsetID }, "the headset is gone from the list")
        }
        #expect(try await simulated.serverInfo().defaultSinkName == Self.laptopSink)
        await manager.stop()
    }
}

/// A ``SimulatedServer`` whose set-default-sink requests can be held unanswered, recording the
/// sinks asked for.
final class HeldDefaultServer: ForwardingServer, Sendable {
    private struct Hold {
        var isHolding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var requests: RecordedEvents<String>?
    }

    let base: SimulatedServer
    private let hold = Mutex(Hold())

    init(_ base: SimulatedServer) { self.base = base }

    /// Holds set-default-sink requests from now on; returns the sinks asked for meanwhile.
    func holdSetDefaultSink() -> RecordedEvents<String> {
        let requests = RecordedEvents<String>()
        hold.withLock {
            $0.isHolding = true
            $0.requests = requests
        }
        return requests
    }

    /// Answers the held requests, and later ones at once.
    func releaseSetDefaultSink() {
        let waiting = hold.withLock { hold in
            hold.isHolding = false
            hold.requests = nil
            defer { hold.waiting.removeAll() }
            return hold.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    func setDefaultSink(_ sink: String) async throws {
        if let requests = hold.withLock({ $0.requests }) { await requests.append(sink) }
        await withCheckedContinuation { continuation in
            let held = hold.withLock { hold -> Bool in
                guard hold.isHolding else { return false }
                hold.waiting.append(continuation)
                return true
            }
            if !held { continuation.resume() }
        }
        try await base.setDefaultSink(sink)
    }
}
