import ConcurrencySupport
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// ``AudioDeviceManager/mirror(readingAgain:)``: a follower that has just changed a sink
/// (volume capture's restore) gets the first mirror that read it after the change, whether or
/// not the server announced it, with a revision no earlier mirror has.
@Suite("AudioDeviceManager: reading sinks again for a follower")
struct ManagerReadAgainTests {
    static let half = ChannelVolumes(channelCount: 2, percent: 50)
    static let most = ChannelVolumes(channelCount: 2, percent: 80)

    @Test("a change the server did not announce (a sink's, the default's) is in the mirror read again, and in no mirror before it")
    func readsWhatWasNotAnnounced() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        _ = try simulated.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        try await simulated.setDefaultSink("speaker")
        try await simulated.setSinkVolume("speaker", Self.half)
        let server = QuietChangesServer(simulated)
        let manager = AudioDeviceManager(server: server, logger: .forTests())
        try await manager.start()
        var mirrors = manager.mirrors().makeAsyncIterator()
        let before = try #require(await mirrors.next())
        #expect(before.defaultSink?.volume == Self.half)

        server.quiet = true
        try await simulated.setSinkVolume("speaker", Self.most)
        try await simulated.setSinkVolume("headset", Self.most)
        let after = await manager.mirror(readingAgain: ["speaker"])
        #expect(after.isConnected)
        #expect(after.defaultSink?.volume == Self.most, "the speaker read again")
        #expect(after.sinks.values.first { $0.name == "headset" }?.volume != Self.most, "the headset, not asked for, not read")
        #expect(after.revision > before.revision)
        // Followers get the same mirror; none before it showed the change.
        while let next = await mirrors.next() {
            guard next.revision < after.revision else {
                #expect(next == after)
                break
            }
            #expect(next.defaultSink?.volume == Self.half, "revision \(next.revision), before the reading again")
        }

        // The defaults, read again on request.
        try await simulated.setDefaultSink("headset")
        #expect(manager.mirror.defaultSinkName == "speaker", "not announced")
        let defaults = await manager.mirror(readingAgain: [], defaults: true)
        #expect(defaults.defaultSinkName == "headset")
        #expect(manager.mirror.revision == defaults.revision)

        // Nothing to read: the mirror as it is, at once.
        let unknown = await manager.mirror(readingAgain: ["nothing-by-this-name"])
        #expect(unknown.revision == defaults.revision)
        await manager.stop()
        let stopped = await manager.mirror(readingAgain: ["speaker"])
        #expect(!stopped.isConnected, "not running: the mirror as the manager left it")
    }

    @Test("a follower waiting while the connection goes gets the disconnected mirror, not a wait without end",
          .timeLimit(.minutes(1)))
    func answeredWhenDisconnected() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        try await simulated.setDefaultSink("speaker")
        let manager = AudioDeviceManager(server: simulated, logger: .forTests())
        try await manager.start()
        simulated.disconnect()
        var mirror = await manager.mirror(readingAgain: ["speaker"])
        // The loop may read the sink before it hears of the disconnection: then the next one.
        while mirror.isConnected { mirror = await manager.mirror(readingAgain: ["speaker"]) }
        #expect(!mirror.isConnected)
        await manager.stop()
    }
}

/// A ``SimulatedServer`` whose sinks' and defaults' changes can go unannounced, as a change
/// the manager's loop has not heard of yet when a follower's request is answered.
final class QuietChangesServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    private let isQuiet = LockedValue(false)

    init(_ base: SimulatedServer) { self.base = base }

    /// While true, no change of a sink or of the defaults reaches the manager.
    var quiet: Bool {
        get { isQuiet.withLock { $0 } }
        set { isQuiet.withLock { $0 = newValue } }
    }

    func events() -> AsyncStream<PulseEvent> {
        let events = base.events()
        let (stream, continuation) = AsyncStream.makeStream(of: PulseEvent.self)
        let forwarding = Task { [isQuiet] in
            for await event in events {
                if case .subscription(let change) = event, change.facility == .sink || change.facility == .server,
                   change.kind == .change, isQuiet.withLock({ $0 }) { continue }
                continuation.yield(event)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }
}
