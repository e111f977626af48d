import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// ``MissedDefaultHealer``: a connection without an engine (volume capture's, in `routectl
/// volume-keys`) that missed a change of the default is renewed once clients stop coming and
/// going; one that missed nothing is read once and left alone. What must not happen is checked
/// over three times the check's quiet period of 300 ms.
@Suite("MissedDefaultHealer: a bare connection kept current with the default")
struct MissedDefaultHealerTests {
    /// Three times the check's quiet period: long enough for a reading that should not come.
    static let window = Duration.milliseconds(900)

    /// A pipewire-pulse-like server with two sinks, the speaker the default.
    static func server() throws -> SimulatedServer {
        let simulated = SimulatedServer(serverName: "PulseAudio (on PipeWire 1.4.2)")
        _ = try simulated.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        _ = try simulated.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        return simulated
    }

    /// Runs a healer on `server` while `body` runs (following events before `body` starts).
    static func healing(_ server: any AudioServer, _ body: () async throws -> Void) async throws {
        let healer = MissedDefaultHealer(server: server, logger: .forTests())
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await healer.run() }
            try await body()
            group.cancelAll()
        }
    }

    @Test("a default changed unheard while a client came and went is read once it left, and the connection renewed")
    func missedChangeHealed() async throws {
        let simulated = try Self.server()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("speaker")
        let server = RenewalCountingServer(simulated)
        let events = simulated.events()
        try await Self.healing(server) {
            // A `pactl set-default-sink` whose change this connection never hears of.
            let pactl = simulated.connectClient(name: "pactl")
            try simulated.simulateMissedDefaultSink("headset")
            try simulated.disconnectClient(pactl.index)
            #expect(try await simulated.serverInfo().defaultSinkName == "speaker", "missed")

            _ = try await firstEvent("the connection renewed", in: events, timeout: .seconds(5)) { _ in server.renewals > 0 }
            #expect(try await simulated.serverInfo().defaultSinkName == "headset", "the connection reads the default in force")
            // The healer's own reading came and went: no other reading, no other renewal.
            let readings = simulated.newConnectionReadings
            try await Task.sleep(for: Self.window)
            #expect(simulated.newConnectionReadings == readings, "a reading started by the healer's own client")
            #expect(server.renewals == 1)
        }
    }

    @Test("clients that come and go while nothing was missed cost one reading and no renewal; none come, no reading")
    func nothingMissed() async throws {
        let simulated = try Self.server()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("headset")
        let server = RenewalCountingServer(simulated)
        let events = simulated.events()
        try await Self.healing(server) {
            try await Task.sleep(for: Self.window)
            #expect(simulated.newConnectionReadings == 0, "no client came or went: nothing read")

            try await simulated.clientBurst(5, thenReadingGoneIn: events)
            try await Task.sleep(for: Self.window)
            #expect(simulated.newConnectionReadings == 1, "five clients in a burst: one reading")
            #expect(server.renewals == 0)
            #expect(try await simulated.serverInfo().defaultSinkName == "headset")
        }
    }
}
