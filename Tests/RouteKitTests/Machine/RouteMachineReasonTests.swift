import PulseAudio
@testable import RouteKit
import Testing

/// Every route change names what caused it (Docs/Policy.md, "Events").
struct RouteMachineReasonTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let wired = MachineDevices.wiredHeadset()
    let hdmi = MachineDevices.hdmi()

    /// Settled on the speaker, with `preferences`.
    func onSpeaker(_ preferences: [AudioPreference], also devices: [AudioDevice] = []) -> MachineRig {
        MachineRig.settled(on: speaker, preferences, also: devices)
    }

    @Test func started() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        let said = rig.start()
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(nil, headset.id, .started)])
    }

    @Test func startedWithNothingToChange() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName)
        #expect(rig.start().routeChanges == [SeenRouteChange(nil, speaker.id, .started)])
    }

    @Test func preferencesChanged() {
        var rig = onSpeaker([], also: [headset])
        let said = rig.handle(.setPreferred(.kind(.bluetooth)))
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, headset.id, .preferencesChanged)])
    }

    @Test func selectionChanged() {
        var rig = onSpeaker([.kind(.speakerphone)], also: [hdmi])
        let said = rig.handle(.select(hdmi.id))
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, hdmi.id, .selectionChanged)])
    }

    @Test func deviceAppeared() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)])
        let said = rig.plug(headset)
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, headset.id, .deviceAppeared)])
    }

    @Test func deviceAppearedWhenTheServerMovedTheDefaultToItFirst() {
        // module-switch-on-connect (or WirePlumber) made the new device the default in the
        // same batch of events: it still appeared.
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)])
        let said = rig.plug(headset, defaultSink: headset.sinkName)
        #expect(said.plans.isEmpty)
        #expect(said.routeChanges == [SeenRouteChange(speaker.id, headset.id, .deviceAppeared)])
    }

    @Test func deviceFailed() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)], also: [headset, hdmi])
        #expect(rig.machine.route?.id == headset.id)
        let said = rig.unplug(headset.id, defaultSink: hdmi.sinkName)
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(headset.id, speaker.id, .deviceFailed)])
    }

    @Test func deviceFailedWhenTheServerFellBackToTheNextChoiceItself() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)], also: [headset])
        let said = rig.unplug(headset.id, defaultSink: speaker.sinkName)
        #expect(said.plans.isEmpty)
        #expect(said.routeChanges == [SeenRouteChange(headset.id, speaker.id, .deviceFailed)])
    }

    @Test func deviceChanged() {
        // The preferred headset was refused; its port's availability changes: worth a try.
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        let said = rig.change(headset.altered { $0.availability = .available })
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, headset.id, .deviceChanged)])
    }

    @Test func changedElsewhere() {
        var rig = onSpeaker([], also: [hdmi])
        rig.advance(.seconds(1))
        let said = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(said.routeChanges == [SeenRouteChange(speaker.id, hdmi.id, .changedElsewhere)])
    }

    @Test func fellThrough() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)])
        _ = rig.plug(headset, wired)
        let said = rig.machine.switchFailed(headset.id, refusal(.port, .invalidArgument), now: rig.now)
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, wired.id, .fellThrough)])
    }

    @Test func callStarted() {
        let speaker = MachineDevices.speaker(microphone: true)
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: speaker.input?.deviceName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        let on = rig.handle(.callAudio(true))
        #expect(on.profileSelections.map(\.device) == [headset.id])
        let shown = rig.change(MachineDevices.bluetoothHeadset(profile: .headsetUnit))
        #expect(rig.settle(shown).routeChanges == [SeenRouteChange(speaker.id, headset.id, .callStarted)])
    }

    @Test func callEnded() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)], also: [headset])
        _ = rig.handle(.callAudio(true))
        _ = rig.settle(rig.machine.switchFailed(headset.id, refusal(.profile, .inputOutput), now: rig.now))
        #expect(rig.machine.route?.id == speaker.id)
        let off = rig.handle(.callAudio(false))
        #expect(rig.settle(off).routeChanges == [SeenRouteChange(speaker.id, headset.id, .callEnded)])
    }

    @Test func refreshed() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        let said = rig.handle(.refresh)
        #expect(rig.settle(said).routeChanges == [SeenRouteChange(speaker.id, headset.id, .refreshed)])
    }

    @Test func reconnected() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        _ = rig.loseConnection()
        let back = rig.machine.connectionRestored(devices: rig.devices, defaultSink: speaker.sinkName, defaultSource: nil,
                                                  now: rig.now)
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(nil, headset.id, .reconnected)])
    }

    @Test func stopped() {
        var rig = onSpeaker([.kind(.bluetooth)], also: [headset])
        let said = rig.machine.stopped(restoredRoute: rig.device(speaker.id))
        #expect(said.routeChanges == [SeenRouteChange(headset.id, speaker.id, .stopped)])
        #expect(rig.machine.route == nil)
        #expect(!rig.machine.isConnected)
    }
}
