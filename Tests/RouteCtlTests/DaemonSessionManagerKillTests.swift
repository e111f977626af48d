import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// WirePlumber SIGKILLed alone under `routectl daemon` on PipeWire (PipeWire and
/// pipewire-pulse stay): while it is gone nothing applies a default, and the headset comes and
/// goes; once it is back, the route is the policy's answer and the daemon answers as before.
@Suite("routectl daemon with WirePlumber killed")
struct DaemonSessionManagerKillTests {
    @Test("WirePlumber killed while the headset comes and goes: the daemon lives and answers; back, the route is the policy's",
          .timeLimit(.minutes(5)))
    func wirePlumberKilled() async throws {
        let drill = FaultDrill.fromEnvironment(defaultRepeats: 2)
        try await DBusAPITests.withDaemon(.pipewire) { server, clients, daemon in
            var headset = try await DaemonServerKillTests.module(named: "bt_headset", on: server)
            let clock = ContinuousClock()
            var longest = Duration.zero
            for round in 1...drill.repeats {
                try await server.crashSessionManager()
                try await server.unloadModule(headset)
                headset = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
                let answered = try await withTimeout("Status without WirePlumber, round \(round)", .seconds(5)) {
                    try await clients.call("Status")
                }
                #expect(answered.status == 0, "\(answered)")
                let restarted = clock.now
                try await server.restartSessionManager()
                // Without WirePlumber the server refuses a default ("Not supported": no
                // "default" metadata) or shows none; WirePlumber, back, applies a default of its
                // own, which is the session manager choosing, not another client: the engine
                // decides again and the headset is the default.
                do {
                    try await ServerObservation.waitForDefaultSink("bt_headset", on: server, timeout: .seconds(10))
                } catch {
                    throw TimedOut(what: "round \(round): \(error)", written: daemon.standardError.lines)
                }
                longest = max(longest, restarted.duration(to: clock.now))
                let after = try await withTimeout("Status after WirePlumber's return, round \(round)", .seconds(5)) {
                    try await clients.call("Status")
                }
                #expect(after.status == 0, "\(after)")
                // The next round starts from the policy's route again: the headset chosen by hand.
                #expect(try await clients.call("Use", "s", "bt_headset").status == 0)
                try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
                #expect(try await clients.call("ClearSelection").status == 0)
            }
            #expect(daemon.standardError.lines.contains { $0.hasPrefix("route: bt_headset ") })
            FaultDrill.figure("wireplumber-kill rounds", "\(drill.repeats)")
            FaultDrill.figure("wireplumber-kill longest restart and route check", "\(longest)")
        }
    }
}
