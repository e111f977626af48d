import PulseAudio
@testable import RouteKit
import Testing

/// The session manager choosing again is no rival (Docs/Policy.md, "Someone else taking the
/// default away"; issue 18's storm and WirePlumber-kill findings): a switch that meets no
/// default, or the server's fallback while devices come and go, is decided again, not yielded
/// to; a real rival is still yielded to, but only at the override limit.
struct RouteMachineSessionManagerTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let other = MachineDevices.bluetoothHeadset("00_1B_66_DD_EE_FF")

    /// The route on the headset (preferred), the speaker beside it.
    func onHeadset() -> MachineRig {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        return rig
    }

    @Test func aSwitchThatMeetsNoDefaultWaitsForTheSessionManagerAndIsDecidedWhenItChooses() {
        // WirePlumber gone: the switch to the headset is never applied, the server shows no default.
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        #expect(rig.start().routedTo == [headset.id])
        _ = rig.serverSetsDefaults(sink: nil)
        let missed = rig.passDeadline()
        #expect(missed.failedDevices == [headset.id])
        #expect(missed.events.allSatisfy { if case .yielded = $0 { false } else { true } })
        #expect(!rig.machine.isYielding)
        #expect(rig.machine.overrides.isEmpty, "no default at all is no one's choice")
        // The fallback to the speaker is not applied either.
        #expect(missed.routedTo == [speaker.id])
        #expect(rig.passDeadline().failedDevices == [speaker.id])
        #expect(!rig.machine.isYielding)

        // WirePlumber back: it applies a default of its own (the speaker). That is the session
        // manager choosing, and the policy's answer is put in place.
        rig.advance(.seconds(2))
        let chosen = rig.serverSetsDefaults(sink: speaker.sinkName)
        #expect(chosen.routedTo == [headset.id])
        _ = rig.settle(chosen)
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.devices.first { $0.isActive }?.id == headset.id)
        #expect(!rig.machine.isYielding)
    }

    @Test func aMissedConfirmationWhileDevicesComeAndGoIsDecidedAgainAtOnce() {
        var rig = onHeadset()
        rig.advance(.seconds(1))
        // A second headset arrives (the newest of the kind wins); the switch to it waits.
        #expect(rig.plug(other).routedTo == [other.id])
        // Devices keep coming and going: the server falls back to the speaker and never shows ours.
        rig.advance(.milliseconds(500))
        _ = rig.unplug(headset.id, defaultSink: speaker.sinkName)
        let missed = rig.passDeadline()
        #expect(missed.failedDevices == [other.id])
        #expect(missed.events.allSatisfy { if case .yielded = $0 { false } else { true } })
        #expect(!rig.machine.isYielding)
        #expect(missed.routedTo == [other.id], "the server's fallback is decided on again, not kept")
        _ = rig.settle(missed)
        #expect(rig.machine.route?.id == other.id)
        #expect(rig.machine.overrides.isEmpty)
    }

    @Test func aRivalsCrossingsCountAndOnlyTheLimitYields() throws {
        var rig = onHeadset()
        let limit = rig.machine.configuration.overrideLimit
        // A rival takes the default: taken back (one override).
        rig.advance(.milliseconds(500))
        var answer = rig.serverSetsDefaults(sink: speaker.sinkName)
        #expect(answer.routedTo == [headset.id])
        // Its answer keeps crossing ours: the default stays on the speaker, present all along.
        for crossing in 2...limit {
            #expect(!rig.machine.isYielding, "crossing \(crossing) must not yield before the limit")
            #expect(answer.routedTo == [headset.id], "crossing \(crossing - 1) is answered by taking the default back")
            _ = rig.serverSetsDefaults(sink: speaker.sinkName)
            answer = rig.passDeadline()
        }
        #expect(answer.events.contains(.yielded(to: rig.device(speaker.id), overrides: limit)))
        #expect(answer.plans.isEmpty)
        #expect(rig.machine.isYielding)
        #expect(rig.machine.route?.id == speaker.id)
    }

    @Test func yieldingAtADeadlineSwitchesNowhereElse() throws {
        // A wired headset between the two in the preferences: the switch that the rival's
        // answer keeps crossing is the Bluetooth headset's, the wired one is the next choice.
        let wired = MachineDevices.wiredHeadset()
        var rig = MachineRig([speaker, headset, wired], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        let limit = rig.machine.configuration.overrideLimit
        rig.advance(.milliseconds(500))
        var answer = rig.serverSetsDefaults(sink: speaker.sinkName)
        for _ in 2...limit {
            _ = rig.serverSetsDefaults(sink: speaker.sinkName)
            answer = rig.passDeadline()
        }
        // At the limit the machine yields to the rival's speaker: it switches nowhere, not to
        // the next device of its own list, and the speaker is the route.
        #expect(answer.events.contains(.yielded(to: rig.device(speaker.id), overrides: limit)))
        #expect(answer.plans.isEmpty, "yielding, yet it asked for \(answer.routedTo)")
        #expect(rig.machine.isYielding)
        #expect(rig.machine.pending == nil)
        #expect(rig.machine.route?.id == speaker.id)
        #expect(rig.machine.deadline == nil)
        // Until the user speaks (here a refresh): the policy decides again, from the top.
        rig.advance(.seconds(1))
        let refreshed = rig.handle(.refresh)
        #expect(!rig.machine.isYielding)
        #expect(refreshed.routedTo == [headset.id])
    }

    @Test func aDefaultRefusedForWantOfASessionManagerSetsNoDeviceAside() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        #expect(rig.start().routedTo == [headset.id])
        // pipewire-pulse without WirePlumber: "Not supported" for any default.
        let refused = rig.machine.switchFailed(headset.id, refusal(.defaultSink, .notSupported), now: rig.now)
        #expect(refused.isEmpty)
        #expect(rig.machine.refused.isEmpty)
        #expect(rig.machine.pending == nil)

        // WirePlumber back: its default (the speaker again) brings the next decision.
        rig.advance(.seconds(2))
        let back = rig.serverSetsDefaults(sink: speaker.sinkName)
        #expect(back.routedTo == [headset.id])
        _ = rig.settle(back)
        #expect(rig.machine.route?.id == headset.id)
        #expect(!rig.machine.isYielding)
    }

    @Test func theFallbackAfterADefaultThatNamedAGoneDeviceIsNoOverride() {
        var rig = onHeadset()
        rig.advance(.seconds(1))
        // A switch already replaced by a newer one fails: its sink was gone.
        _ = rig.machine.switchFailed(other.id, refusal(.defaultSink, .noSuchEntity), now: rig.now)
        rig.advance(.milliseconds(100))
        let fallback = rig.serverSetsDefaults(sink: speaker.sinkName)
        #expect(rig.machine.overrides.isEmpty, "the server's fallback after our failed switch is no rival")
        #expect(fallback.routedTo == [headset.id])
    }
}
