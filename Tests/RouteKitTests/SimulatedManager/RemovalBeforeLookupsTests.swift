import PulseAudio
import RouteKit
import RouteKitTesting
import Synchronization
import TestSupport
import Testing

/// A device going is acted on as its removal arrives, without waiting for the lookups the
/// server's announcement of a moved default asked for: PulseAudio announces the default it
/// moved before the device it removes, and those lookups cost a round trip the fallback does
/// not need.
@Suite("AudioDeviceManager: a removal does not wait for lookups")
struct RemovalBeforeLookupsTests {
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let speaker = AudioDevice.ID(rawValue: "alsa_card.pci-0000_00_1f.3/analog-output-speaker")
    static let headsetID = AudioDevice.ID(rawValue: "bluez_card.00_1B_66_AA_BB_CC/headset-output")

    @Test("the preferred headset goes while the server's answers are held: the fallback is asked for at once")
    func fallbackWhileLookupsAreHeld() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.usbHeadset())
        _ = try simulated.addCard(.bluetoothHeadset())
        let server = HeldAnswersServer(simulated)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: Self.headsetID)

        // Answers about the server (its defaults) are held from now on; a removal needs none.
        let requests = await server.holdServerInfo()
        try simulated.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC")
        let asked = try await requests.next("the default asked for after the headset went", after: 0) { _ in true }
        #expect(asked == Self.laptopSink, "the fallback the preferences name")
        #expect(server.heldAnswers > 0, "asked before the held lookups were answered")

        let mark = await log.count
        server.releaseServerInfo()
        let fallback = try await log.waitForRoute(to: Self.speaker, after: mark - 1)
        #expect(fallback.reason == .deviceFailed)
        #expect(try await simulated.serverInfo().defaultSinkName == Self.laptopSink)
        #expect(await log.failures.isEmpty)
        await manager.stop()
    }
}

/// A ``SimulatedServer`` whose `serverInfo()` answers can be held back, and which records
/// the default sinks it is asked for while they are.
final class HeldAnswersServer: ForwardingServer, Sendable {
    private struct Hold {
        var isHolding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var requests: RecordedEvents<String>?
    }

    let base: SimulatedServer
    private let hold = Mutex(Hold())

    init(_ base: SimulatedServer) { self.base = base }

    /// Holds `serverInfo()` answers from now on; returns the default sinks asked for meanwhile.
    func holdServerInfo() async -> RecordedEvents<String> {
        let requests = RecordedEvents<String>()
        hold.withLock {
            $0.isHolding = true
            $0.requests = requests
        }
        return requests
    }

    /// Lets every held answer go, and later ones through.
    func releaseServerInfo() {
        let waiting = hold.withLock { hold in
            hold.isHolding = false
            hold.requests = nil
            defer { hold.waiting.removeAll() }
            return hold.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// How many `serverInfo()` answers are held now.
    var heldAnswers: Int { hold.withLock { $0.waiting.count } }

    func serverInfo() async throws -> ServerInfo {
        await withCheckedContinuation { continuation in
            let held = hold.withLock { hold -> Bool in
                guard hold.isHolding else { return false }
                hold.waiting.append(continuation)
                return true
            }
            if !held { continuation.resume() }
        }
        return try await base.serverInfo()
    }

    func setDefaultSink(_ sink: String) async throws {
        try await base.setDefaultSink(sink)
        if let requests = hold.withLock({ $0.requests }) { await requests.append(sink) }
    }
}
