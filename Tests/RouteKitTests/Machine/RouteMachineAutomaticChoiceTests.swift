import PulseAudio
@testable import RouteKit
import Testing

/// What the preferences may choose by themselves (``AutomaticChoice``): devices never chosen
/// by kind, a list of the only ones that may be, and the hold-off that keeps a flapping device
/// from moving the route faster than it settles.
struct RouteMachineAutomaticChoiceTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let neighbours = MachineDevices.bluetoothHeadset("00_11_22_33_44_55")

    /// On the speaker, preferring Bluetooth then the speaker, with `choice` in force.
    func onSpeaker(_ choice: AutomaticChoice, also devices: [AudioDevice] = []) -> MachineRig {
        var rig = MachineRig([speaker] + devices, defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.handle(.setAutomaticChoice(choice))
        _ = rig.settle(rig.start())
        return rig
    }

    // MARK: never and only

    @Test func aKindNeverChoosesADeviceOfACardListedInNever() {
        var rig = onSpeaker(AutomaticChoice(never: [DeviceMatch(neighbours.card ?? "")]))
        let plugged = rig.plug(neighbours)
        #expect(plugged.routedTo.isEmpty)
        #expect(rig.machine.route?.id == speaker.id)

        // Their own headset is chosen as usual.
        #expect(rig.plug(headset).routedTo == [headset.id])
    }

    @Test func anExactPreferenceAndAManualSelectionStillReachANeverDevice() {
        var rig = onSpeaker(AutomaticChoice(never: [DeviceMatch(neighbours.id.rawValue)]), also: [neighbours])
        #expect(rig.machine.route?.id == speaker.id)
        #expect(rig.handle(.select(neighbours.id)).routedTo == [neighbours.id])
        _ = rig.settle(rig.handle(.select(nil)))
        #expect(rig.machine.route?.id == speaker.id)
        #expect(rig.handle(.setPreferences(PreferenceList([.device(neighbours.id)]))).routedTo == [neighbours.id])
    }

    @Test func onlyNarrowsAKindToTheListedDevices() {
        var rig = onSpeaker(AutomaticChoice(only: [DeviceMatch(headset.card ?? ""), DeviceMatch(speaker.id.rawValue)]))
        #expect(rig.plug(neighbours).routedTo.isEmpty)
        #expect(rig.plug(headset).routedTo == [headset.id])
    }

    @Test func newRulesApplyAtOnce() {
        var rig = onSpeaker(AutomaticChoice(), also: [neighbours])
        #expect(rig.machine.route?.id == neighbours.id)
        let ruled = rig.handle(.setAutomaticChoice(AutomaticChoice(never: [DeviceMatch(neighbours.card ?? "")])))
        #expect(ruled.routedTo == [speaker.id])
        #expect(rig.machine.automatic.never == [DeviceMatch(neighbours.card ?? "")])
    }

    // MARK: hold-off

    @Test func aNewDeviceIsChosenOnlyOnceItHasStayedTheHoldOff() {
        var rig = onSpeaker(AutomaticChoice(holdOff: .seconds(2)))
        let plugged = rig.plug(headset)
        #expect(plugged.routedTo.isEmpty, "held back")
        #expect(rig.machine.deadline == rig.now + .seconds(2))

        rig.advance(.seconds(1))
        #expect(rig.machine.deadlinePassed(now: rig.now).routedTo.isEmpty)

        let due = rig.passDeadline()
        #expect(due.routedTo == [headset.id])
        #expect(rig.settle(due).routeChanges == [SeenRouteChange(speaker.id, headset.id, .deviceAppeared)])
        #expect(rig.machine.deadline == nil)
    }

    @Test func aFlappingDeviceMovesTheRouteOnceItSettles() {
        var rig = onSpeaker(AutomaticChoice(holdOff: .seconds(2)), also: [headset])
        #expect(rig.machine.route?.id == headset.id, "present at start: no hold-off")
        var switches: [AudioDevice.ID] = []

        // The headset goes: audio leaves it at once.
        var said = rig.unplug(headset.id, defaultSink: speaker.sinkName)
        switches += said.routedTo
        _ = rig.settle(said)
        #expect(rig.machine.route?.id == speaker.id)

        // A reconnect storm: back and gone every half second, for four seconds.
        for _ in 0..<4 {
            rig.advance(.milliseconds(500))
            said = rig.plug(headset) + rig.machine.deadlinePassed(now: rig.now)
            switches += said.routedTo
            rig.advance(.milliseconds(500))
            said = rig.unplug(headset.id) + rig.machine.deadlinePassed(now: rig.now)
            switches += said.routedTo
        }
        #expect(switches.isEmpty, "the route stayed on the speaker through the storm")

        // It stays: audio moves to it once, when its hold-off is over.
        rig.advance(.milliseconds(500))
        #expect(rig.plug(headset).routedTo.isEmpty)
        let settled = rig.passDeadline()
        #expect(settled.routedTo == [headset.id])
        _ = rig.settle(settled)
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func aManualSelectionIsNeverHeldBack() {
        var rig = onSpeaker(AutomaticChoice(holdOff: .seconds(2)))
        _ = rig.plug(headset)
        #expect(rig.handle(.select(headset.id)).routedTo == [headset.id])
    }

    @Test func aNewDeviceTheServerPutAudioOnIsKeptDuringItsHoldOff() {
        // The server moved the default to the newcomer itself (WirePlumber does): moving away
        // and back would be two switches where none is needed.
        var rig = onSpeaker(AutomaticChoice(holdOff: .seconds(2)))
        let plugged = rig.plug(headset, defaultSink: headset.sinkName)
        #expect(plugged.routedTo.isEmpty)
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func aHoldOffSetToZeroLetsHeldDevicesGoAtOnce() {
        var rig = onSpeaker(AutomaticChoice(holdOff: .seconds(10)))
        #expect(rig.plug(headset).routedTo.isEmpty)
        #expect(rig.handle(.setAutomaticChoice(AutomaticChoice())).routedTo == [headset.id])
    }
}
