import PulseAudio
@testable import RouteKit
import Testing

/// Someone else takes the default away: put back, but not fought forever
/// (<doc:WhatWinsWhen>, "Someone else moves the route"; the engine issue's yielding).
struct RouteMachineOverrideTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let wired = MachineDevices.wiredHeadset()

    /// Started with the route on the headset (preferred), the speaker beside it.
    func onHeadset() -> MachineRig {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        return rig
    }

    /// Someone sets the default to the speaker `after` from now; returns what the machine said.
    func override(_ rig: inout MachineRig, after: Duration) -> [RouteAction] {
        rig.advance(after)
        return rig.serverSetsDefaults(sink: speaker.sinkName)
    }

    @Test func aDefaultTakenAwayIsPutBack() {
        var rig = onHeadset()
        let taken = override(&rig, after: .seconds(1))
        #expect(taken.routedTo == [headset.id])
        #expect(taken.plans.first?.setsSink == true)
        #expect(!rig.machine.isYielding)
        _ = rig.settle(taken)
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.devices.first { $0.isActive }?.id == headset.id)
    }

    @Test func afterTheLimitWithinTheWindowTheMachineYields() throws {
        var rig = onHeadset()
        let limit = rig.machine.configuration.overrideLimit
        for _ in 1..<limit {
            let taken = override(&rig, after: .seconds(1))
            #expect(taken.routedTo == [headset.id])
            _ = rig.settle(taken)
        }

        let last = override(&rig, after: .seconds(1))
        #expect(last.plans.isEmpty)
        #expect(last.events.contains(.yielded(to: rig.device(speaker.id), overrides: limit)))
        #expect(last.routeChanges == [SeenRouteChange(headset.id, speaker.id, .changedElsewhere)])
        #expect(rig.machine.isYielding)
        #expect(rig.machine.state.isYielding)
        #expect(rig.machine.route?.id == speaker.id)

        // While yielding, nothing is taken back, and nothing is announced twice.
        rig.advance(.seconds(1))
        let again = rig.serverSetsDefaults(sink: headset.sinkName)
        #expect(again.plans.isEmpty)
        #expect(again.events.allSatisfy { if case .yielded = $0 { false } else { true } })
        #expect(again.routeChanges == [SeenRouteChange(speaker.id, headset.id, .changedElsewhere)])
        let back = override(&rig, after: .seconds(1))
        #expect(back.plans.isEmpty)
        #expect(rig.machine.isYielding)
    }

    @Test func overridesSpreadBeyondTheWindowAreAlwaysPutBack() {
        var rig = onHeadset()
        let spacing = rig.machine.configuration.overrideWindow / 2 + .seconds(1)
        for _ in 0..<(rig.machine.configuration.overrideLimit * 2) {
            let taken = override(&rig, after: spacing)
            #expect(taken.routedTo == [headset.id])
            _ = rig.settle(taken)
        }
        #expect(!rig.machine.isYielding)
        #expect(rig.machine.route?.id == headset.id)
    }

    /// Yielded to the speaker.
    func yielded() -> MachineRig {
        var rig = onHeadset()
        for _ in 1..<rig.machine.configuration.overrideLimit { _ = rig.settle(override(&rig, after: .seconds(1))) }
        _ = override(&rig, after: .seconds(1))
        return rig
    }

    @Test func aPreferenceChangeEndsYielding() {
        var rig = yielded()
        #expect(rig.machine.isYielding)
        let asked = rig.handle(.setPreferred(.kind(.bluetooth)))
        #expect(!rig.machine.isYielding)
        #expect(asked.routedTo == [headset.id])
        #expect(rig.settle(asked).routeChanges == [SeenRouteChange(speaker.id, headset.id, .preferencesChanged)])
    }

    @Test func aDeviceAddedEndsYielding() {
        var rig = yielded()
        let plugged = rig.plug(wired)
        #expect(!rig.machine.isYielding)
        #expect(plugged.routedTo == [headset.id])
        _ = rig.settle(plugged)
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func aSelectionEndsYielding() {
        var rig = yielded()
        let selected = rig.handle(.select(headset.id))
        #expect(!rig.machine.isYielding)
        #expect(selected.routedTo == [headset.id])
    }

    @Test func aSelectionIsPutBackToo() {
        let hdmi = MachineDevices.hdmi()
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: speaker.sinkName)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.select(hdmi.id)))
        let taken = override(&rig, after: .seconds(1))
        #expect(taken.routedTo == [hdmi.id])
        _ = rig.settle(taken)
        #expect(rig.machine.route?.id == hdmi.id)
    }

    @Test func withoutAPreferenceSomeoneElsesChoiceStands() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName)
        _ = rig.start()
        rig.advance(.seconds(1))
        let moved = rig.serverSetsDefaults(sink: headset.sinkName)
        #expect(moved.plans.isEmpty)
        #expect(moved.routeChanges == [SeenRouteChange(speaker.id, headset.id, .changedElsewhere)])
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func theServerMovingTheDefaultAsDevicesComeAndGoIsNoOverride() {
        // The route is the speaker (no headset wanted); the server keeps picking a newcomer
        // and moving the default again when it goes, as WirePlumber does in a reconnect storm.
        let other = MachineDevices.bluetoothHeadset("00_1B_66_DD_EE_FF")
        var rig = MachineRig([speaker], defaultSink: speaker.sinkName, preferences: PreferenceList([.kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        let hdmi = MachineDevices.hdmi()
        _ = rig.plug(hdmi)
        for _ in 0..<(rig.machine.configuration.overrideLimit + 2) {
            rig.advance(.milliseconds(100))
            _ = rig.settle(rig.plug(other, defaultSink: other.sinkName))
            rig.advance(.milliseconds(100))
            _ = rig.settle(rig.unplug(other.id, defaultSink: hdmi.sinkName))
        }
        #expect(!rig.machine.isYielding, "the server's own moves are not someone taking the default")
        // Each time the machine puts the route back on the speaker.
        _ = rig.settle(rig.machine.decide(.refreshed, now: rig.now))
        #expect(rig.machine.route?.id == speaker.id)
    }

    @Test func aDefaultLeavingADeviceTheServerPickedIsNoOverride() {
        let other = MachineDevices.bluetoothHeadset("00_1B_66_DD_EE_FF")
        let hdmi = MachineDevices.hdmi()
        var rig = MachineRig([speaker, hdmi], defaultSink: speaker.sinkName, preferences: PreferenceList([.kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        for _ in 0..<(rig.machine.configuration.overrideLimit + 2) {
            rig.advance(.milliseconds(100))
            // The server picks the newcomer; the machine's switch back is not confirmed yet
            // when the server moves on again, to another device it prefers.
            let picked = rig.plug(other, defaultSink: other.sinkName)
            rig.advance(.milliseconds(100))
            _ = rig.serverSetsDefaults(sink: hdmi.sinkName)
            _ = rig.settle(picked)
            _ = rig.unplug(other.id)
        }
        #expect(!rig.machine.isYielding, "the default leaving a device the server picked is not the route taken away")
    }

    @Test func theServerChoosingAgainAfterAFailedSwitchIsNoOverride() {
        let other = MachineDevices.bluetoothHeadset("00_1B_66_DD_EE_FF")
        let hdmi = MachineDevices.hdmi()
        var rig = MachineRig([speaker, hdmi], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        for _ in 0..<(rig.machine.configuration.overrideLimit + 2) {
            rig.advance(.seconds(1))
            _ = rig.plug(other)
            // The headset vanishes under the switch; the server, its configured default gone,
            // chooses by itself a moment later.
            _ = rig.machine.switchFailed(other.id, refusal(.defaultSink, .noSuchEntity), now: rig.now)
            _ = rig.unplug(other.id)
            rig.advance(.milliseconds(50))
            _ = rig.settle(rig.serverSetsDefaults(sink: hdmi.sinkName))
        }
        #expect(!rig.machine.isYielding, "the server choosing again after the machine's failed switch is no rival")
        #expect(rig.machine.route?.id == speaker.id)
    }
}
