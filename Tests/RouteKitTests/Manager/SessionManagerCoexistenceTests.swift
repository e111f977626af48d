import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// RouteKit beside the session manager's own default policy (Docs/Policy.md, "Beside
/// WirePlumber"): WirePlumber 0.4 and 0.5 each keep a configured default (0.5 with a saved
/// stack of earlier ones) and pick a default themselves when a device comes or goes; RouteKit
/// sets the default it chose, which WirePlumber then keeps. Neither may undo the other.
@Suite("RouteKit beside the session manager: no tug of war")
struct SessionManagerCoexistenceTests {
    @Test("100 plugs and unplugs of a headset: one route change each way, never taken back, no yield",
          .timeLimit(.minutes(4)), arguments: SoundServerKind.allCases)
    func hundredRounds(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone()
        let headset = ConventionDevice.bluetoothHeadset("bt_headset", "BT Headset")
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            try await rig.start(expecting: speaker)
            let start = await rig.recorder.count
            for _ in 1...100 {
                var mark = await rig.recorder.count
                try await rig.plug(headset)
                _ = try await rig.recorder.waitForRoute(to: headset.id, after: mark)
                mark = await rig.recorder.count
                try await rig.unplug(headset)
                _ = try await rig.recorder.waitForRoute(to: speaker.id, after: mark)
            }
            // Settled where the preferences say, on the server as in the manager.
            try await rig.expectRoute(on: speaker, "after 100 rounds")
            let changes = await rig.recorder.routeChanges(after: start)
            let transcript = await rig.recorder.transcript(after: start)
            #expect(changes.count == 200, "exactly one change per plug and per unplug: \(transcript)")
            #expect(changes.allSatisfy { $0.reason == .deviceAppeared || $0.reason == .deviceFailed }, "\(transcript)")
            #expect(!changes.contains { $0.reason == .changedElsewhere }, "the session manager took the default back")
            let events = await rig.recorder.events.dropFirst(start)
            #expect(!events.contains { if case .yielded = $0 { true } else { false } }, "\(transcript)")
        }
    }
}
