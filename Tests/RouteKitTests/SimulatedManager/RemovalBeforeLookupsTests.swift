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
final class HeldAnswersServer: AudioServer, Sendable {
    private struct Hold {
        var isHolding = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var requests: RecordedEvents<String>?
    }

    let inner: SimulatedServer
    private let hold = Mutex(Hold())

    init(_ inner: SimulatedServer) { self.inner = inner }

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
        return try await inner.serverInfo()
    }

    func setDefaultSink(_ sink: String) async throws {
        try await inner.setDefaultSink(sink)
        if let requests = hold.withLock({ $0.requests }) { await requests.append(sink) }
    }

    func sinks() async throws -> [SinkInfo] { try await inner.sinks() }
    func sources() async throws -> [SourceInfo] { try await inner.sources() }
    func cards() async throws -> [CardInfo] { try await inner.cards() }
    func sink(at index: UInt32) async throws -> SinkInfo? { try await inner.sink(at: index) }
    func source(at index: UInt32) async throws -> SourceInfo? { try await inner.source(at: index) }
    func card(at index: UInt32) async throws -> CardInfo? { try await inner.card(at: index) }
    func sinkInputs() async throws -> [SinkInputInfo] { try await inner.sinkInputs() }
    func sourceOutputs() async throws -> [SourceOutputInfo] { try await inner.sourceOutputs() }
    func sinkInput(at index: UInt32) async throws -> SinkInputInfo? { try await inner.sinkInput(at: index) }
    func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo? { try await inner.sourceOutput(at: index) }
    func events() -> AsyncStream<PulseEvent> { inner.events() }
    func observeEvents(_ handler: @escaping @Sendable (PulseEvent?) -> Void) -> EventObservation { inner.observeEvents(handler) }
    func setDefaultSource(_ source: String) async throws { try await inner.setDefaultSource(source) }
    func resetDefaultSink() async throws { try await inner.resetDefaultSink() }
    func resetDefaultSource() async throws { try await inner.resetDefaultSource() }
    func moveSinkInput(_ sinkInput: UInt32, toSink sink: String) async throws { try await inner.moveSinkInput(sinkInput, toSink: sink) }
    func moveSourceOutput(_ sourceOutput: UInt32, toSource source: String) async throws {
        try await inner.moveSourceOutput(sourceOutput, toSource: source)
    }
    func setSinkPort(_ sink: String, port: String) async throws { try await inner.setSinkPort(sink, port: port) }
    func setSourcePort(_ source: String, port: String) async throws { try await inner.setSourcePort(source, port: port) }
    func setCardProfile(_ card: String, profile: String) async throws { try await inner.setCardProfile(card, profile: profile) }
}
