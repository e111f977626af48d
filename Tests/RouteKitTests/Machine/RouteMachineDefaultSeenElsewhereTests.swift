import PulseAudio
@testable import RouteKit
import Testing

/// Another client's view of the default sink (PipeWire's "default" metadata) against the
/// machine's: a difference has the connection renewed and the defaults read again, and only a
/// difference does (Docs/Reliability.md, "The PipeWire default that never reaches long-lived
/// connections").
struct RouteMachineDefaultSeenElsewhereTests {
    let speaker = MachineDevices.speaker()
    let hdmi = MachineDevices.hdmi()
    let headset = MachineDevices.bluetoothHeadset()

    @Test func aDefaultTheMachineDoesNotKnowHasItReadAfresh() {
        var rig = MachineRig.settled(on: speaker, [.kind(.speakerphone)], also: [hdmi])
        #expect(rig.handle(.defaultSinkSeenElsewhere(hdmi.sinkName)) == [.readDefaultsAfresh])
        // Nothing else changed: the route and the preferences stand.
        #expect(rig.machine.route?.id == speaker.id)
    }

    @Test func theDefaultTheMachineKnowsChangesNothing() {
        var rig = MachineRig.settled(on: speaker, [.kind(.speakerphone)], also: [hdmi])
        #expect(rig.handle(.defaultSinkSeenElsewhere(speaker.sinkName)).isEmpty)
    }

    @Test func aSwitchUnderWayIsLeftToItsOwnRecheck() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        #expect(rig.start().routedTo == [headset.id])
        // The request is out, its confirmation not in: another client may already read the headset.
        #expect(rig.handle(.defaultSinkSeenElsewhere(headset.sinkName)).isEmpty)
        #expect(rig.handle(.defaultSinkSeenElsewhere(speaker.sinkName)).isEmpty)
    }

    @Test func applicationScopeRoutesStreamsAndLeavesTheDefaultAlone() {
        var configuration = RouteMachine.Configuration()
        configuration.isSystemScope = false
        var rig = MachineRig([speaker, hdmi], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.speakerphone)]), configuration: configuration)
        _ = rig.settle(rig.start())
        #expect(rig.handle(.defaultSinkSeenElsewhere(hdmi.sinkName)).isEmpty)
    }

    @Test func disconnectedTheMachineAsksNothing() {
        var rig = MachineRig.settled(on: speaker, [.kind(.speakerphone)], also: [hdmi])
        _ = rig.machine.connectionChanged(to: .connecting)
        #expect(rig.handle(.defaultSinkSeenElsewhere(hdmi.sinkName)).isEmpty)
    }
}
