import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// ACB's four steps (seeds/acb-audio-device-manager.txt, "Setting the Default Device"), end
/// to end on real servers: preferred Bluetooth headset, earpiece or speakerphone as fallback,
/// and a device beside them that the server ranks first, so that the fallback is the
/// manager's doing and not the server's.
@Suite("AudioDeviceManager on real servers: ACB's call scenario")
struct ManagerScenarioTests {
    /// A fallback, and the device the server would choose instead of it.
    struct FallbackCase: Sendable, CustomTestStringConvertible {
        let fallback: AudioDeviceKind
        let device: ConventionDevice
        /// The same-rank device of the other personal kind (earpiece vs. speakerphone): the
        /// preference, not the order, must decide between them.
        let otherFallback: ConventionDevice
        /// Ranked above every other sink by the server itself.
        let distractor: ConventionDevice

        var testDescription: String { "fallback \(fallback), server prefers \(distractor)" }
    }

    static let fallbacks = [
        FallbackCase(fallback: .earpiece, device: .earpiece(), otherFallback: .speakerphone(), distractor: .hdmi()),
        FallbackCase(fallback: .speakerphone, device: .speakerphone(), otherFallback: .earpiece(),
                     distractor: .virtual(highPriority: true)),
    ]

    @Test("no headset: fallback; headset 1 on: moves; headset 1 fails: fallback, not the server's pick; headset 2 on: moves",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, fallbacks)
    func acbFourSteps(kind: SoundServerKind, scenario: FallbackCase) async throws {
        let headsetOne = ConventionDevice.bluetoothHeadset("bt_one", "Headset One")
        let headsetTwo = ConventionDevice.bluetoothHeadset("bt_two", "Headset Two")
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(scenario.fallback)]) { rig in
            // Plugged in the order that puts the wrong fallback first where order matters.
            try await rig.plug(scenario.otherFallback)
            try await rig.plug(scenario.device)
            try await rig.plug(scenario.distractor)
            // Control: left alone, the server itself picks the distractor.
            try await rig.expectServerDefault(scenario.distractor, "before the manager starts")
            // The softphone's call stream, where a new stream goes: the server's default.
            let call = try await rig.play(on: scenario.distractor, role: "phone")
            defer { call.stop() }

            // 1. The call starts with no Bluetooth headset: audio on the fallback. ACB's preferred
            // and fallback are its call's: the call list is the same list here (calls have a
            // list of their own, by default the earpiece before the speaker).
            try await rig.start(expecting: scenario.device, streams: [call])
            await rig.manager.setCallPreferences(PreferenceList([.kind(.bluetooth), .kind(scenario.fallback)]))
            var mark = await rig.recorder.count
            await rig.manager.activateCallAudio()
            #expect(rig.manager.isCallAudioActive)
            try await rig.expectRoute(on: scenario.device, streams: [call], "in the call, no headset")
            try await rig.expectNoRouteChange(after: mark, "call audio on the device already in use")

            // 2. Headset 1 is switched on: the default and the call stream move to it.
            mark = await rig.recorder.count
            try await rig.plug(headsetOne)
            let toOne = try await rig.recorder.waitForRoute(to: headsetOne.id, after: mark)
            #expect(toOne.reason == .deviceAppeared)
            #expect(toOne.from?.id == scenario.device.id)
            try await rig.expectRoute(on: headsetOne, streams: [call], "after headset 1 appeared")

            // 3. Headset 1 fails: back to the fallback, although the server alone goes to the
            //    distractor (step 0 showed it would).
            mark = await rig.recorder.count
            try await rig.unplug(headsetOne)
            let back = try await rig.recorder.waitForRoute(to: scenario.device.id, after: mark)
            let transcript = await rig.recorder.transcript(after: mark)
            #expect(back.reason == .deviceFailed, "\(transcript)")
            #expect(back.from?.id == headsetOne.id)
            try await rig.expectRoute(on: scenario.device, streams: [call], "after headset 1 failed")
            let hops = await rig.recorder.routeChanges(after: mark)
            #expect(hops.count == 1, "one move, straight to the fallback: \(hops)")

            // 4. Another headset is switched on: the call moves to it.
            mark = await rig.recorder.count
            try await rig.plug(headsetTwo)
            let toTwo = try await rig.recorder.waitForRoute(to: headsetTwo.id, after: mark)
            #expect(toTwo.reason == .deviceAppeared)
            try await rig.expectRoute(on: headsetTwo, streams: [call], "after headset 2 appeared")

            // The call ends: the route outside calls is the same preference.
            await rig.manager.deactivateCallAudio()
            #expect(!rig.manager.isCallAudioActive)
            try await rig.expectRoute(on: headsetTwo, streams: [call], "after the call")

            // stop() puts back what it found: the server's own default, and the stream on it.
            await rig.manager.stop()
            #expect(rig.manager.selectedAudioDevice == nil)
            // Known flaky on PipeWire (Tests/known-flaky.tsv, since 2026-11-27): once the
            // configured default is forgotten, WirePlumber 0.4 chooses again, and in one CI run of
            // several it chose the other speaker of equal priority. The list, not a known issue
            // here, tolerates it: retried alone, the test must pass two runs of three, so a stop()
            // that never puts the default back still fails.
            try await rig.settle("the default and the stream back where the manager found them") {
                guard try await rig.defaultSink() == scenario.distractor.name else { return false }
                return try await rig.sinkName(of: call) == scenario.distractor.name
            }
        }
    }
}
