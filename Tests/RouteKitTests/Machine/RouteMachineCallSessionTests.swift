import PulseAudio
@testable import RouteKit
import Testing

/// Calls as sessions (issue 17): counted ids, the call list, the speaker toggle, refusals.
struct RouteMachineCallSessionTests {
    /// A phone: loudspeaker and earpiece, the built-in microphone with both.
    let speaker = MachineDevices.speaker(microphone: true)
    var earpiece: AudioDevice {
        MachineDevices.earpiece().altered { $0.input = MachineDevices.speaker(microphone: true).input }
    }
    let headset = MachineDevices.wiredHeadset()

    /// Media prefers the loudspeaker (a phone playing music out loud); settled there.
    func phone(also devices: [AudioDevice] = []) -> MachineRig {
        var rig = MachineRig([speaker, earpiece] + devices, defaultSink: speaker.sinkName,
                             defaultSource: speaker.input?.deviceName,
                             preferences: PreferenceList([.kind(.speakerphone), .kind(.earpiece)]))
        _ = rig.settle(rig.start())
        return rig
    }

    func session(_ id: CallSession.ID, _ state: CallState = .active, origin: CallOrigin = .application) -> CallSession {
        CallSession(id: id, state: state, origin: origin)
    }

    @Test func aCallGoesByTheCallListNotTheMediaList() {
        var rig = phone()
        #expect(rig.machine.route?.id == speaker.id)
        let started = rig.handle(.startCall(session("a")))
        #expect(started.events.contains(.callAudioChanged(isActive: true)))
        #expect(started.routedTo == [earpiece.id])
        _ = rig.settle(started)
        #expect(rig.machine.route?.id == earpiece.id)

        let ended = rig.handle(.endCall("a"))
        #expect(ended.events.contains(.callAudioChanged(isActive: false)))
        _ = rig.settle(ended)
        #expect(rig.machine.route?.id == speaker.id, "the media route comes back")
    }

    @Test func aHeadsetBeatsTheEarpieceForCalls() {
        var rig = phone(also: [headset])
        #expect(rig.machine.route?.id == speaker.id)
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func callModeLastsUntilTheLastCallEnds() {
        var rig = phone()
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        _ = rig.settle(rig.handle(.startCall(session("b"))))
        #expect(rig.machine.calls.map(\.id) == ["a", "b"])

        let first = rig.handle(.endCall("a"))
        #expect(first.events == [.callsChanged([session("b")])])
        #expect(!first.switchesAnything)
        #expect(rig.machine.isCallActive)
        #expect(rig.machine.route?.id == earpiece.id, "the other call keeps the call route")

        _ = rig.settle(rig.handle(.endCall("b")))
        #expect(!rig.machine.isCallActive)
        #expect(rig.machine.route?.id == speaker.id)
    }

    @Test func aRingingCallLeavesTheRouteAndAHeldCallKeepsCallMode() {
        var rig = phone()
        let ringing = rig.handle(.startCall(session("a", .ringing)))
        #expect(!ringing.switchesAnything)
        #expect(!rig.machine.isCallActive)
        #expect(!ringing.events.contains(.callAudioChanged(isActive: true)))

        _ = rig.settle(rig.handle(.setCallState("a", .active)))
        #expect(rig.machine.route?.id == earpiece.id)
        let held = rig.handle(.setCallState("a", .held))
        #expect(!held.switchesAnything, "on hold, the call route stays: resuming does not switch")
        #expect(rig.machine.isCallActive)
        #expect(rig.machine.calls.first?.state == .held)
    }

    @Test func commandsNamingNoCallOrATakenIdAreRefused() {
        var rig = phone()
        #expect(rig.handle(.endCall("nope")).refusals == [.noSuchCall("nope")])
        #expect(rig.handle(.setCallState("nope", .held)).refusals == [.noSuchCall("nope")])
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        let again = rig.handle(.startCall(session("a", .held)))
        #expect(again.refusals == [.callExists("a")])
        #expect(rig.machine.calls == [session("a")], "nothing changed")
    }

    @Test func aBusClientGoingEndsItsCallsOnly() {
        var rig = phone()
        _ = rig.settle(rig.handle(.startCall(session("bus-1", origin: .busClient(":1.7")))))
        _ = rig.settle(rig.handle(.startCall(session("app", origin: .application))))
        _ = rig.settle(rig.handle(.endCalls(.busClient(":1.7"))))
        #expect(rig.machine.calls.map(\.id) == ["app"])
        #expect(rig.machine.isCallActive)
    }

    @Test func theImplicitCallIsOneCallAmongOthers() {
        var rig = phone()
        _ = rig.settle(rig.handle(.callAudio(true)))
        _ = rig.settle(rig.handle(.startCall(session("b"))))
        _ = rig.settle(rig.handle(.callAudio(false)))
        #expect(rig.machine.isCallActive, "ACB's deactivate ends its own call, not the other one")
        #expect(rig.handle(.callAudio(false)).isEmpty)
    }

    // MARK: The speaker toggle

    @Test func speakerOnThenOffGoesToTheEarpieceEvenWhenTheSpeakerWasChosenByHand() {
        var rig = phone()
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        _ = rig.settle(rig.handle(.select(speaker.id)))
        #expect(rig.machine.route?.id == speaker.id)
        _ = rig.settle(rig.handle(.setSpeaker(.on)))
        #expect(rig.machine.route?.id == speaker.id)

        let off = rig.handle(.setSpeaker(.off))
        #expect(off.refusals.isEmpty)
        #expect(off.routedTo == [earpiece.id])
        _ = rig.settle(off)
        #expect(rig.machine.route?.id == earpiece.id)
        #expect(rig.machine.speaker == .off)
    }

    @Test func speakerOffPrefersAHeadsetToTheEarpiece() {
        var rig = phone(also: [headset])
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        _ = rig.settle(rig.handle(.setSpeaker(.on)))
        #expect(rig.machine.route?.id == speaker.id)
        _ = rig.settle(rig.handle(.setSpeaker(.off)))
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func speakerOffWithNothingButTheSpeakerIsRefusedAndChangesNothing() {
        var rig = MachineRig([speaker], defaultSink: speaker.sinkName, defaultSource: speaker.input?.deviceName)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        let off = rig.handle(.setSpeaker(.off))
        #expect(off.refusals.count == 1)
        guard case .nothingButSpeaker? = off.refusals.first else {
            Issue.record("expected nothingButSpeaker, got \(off.refusals)")
            return
        }
        #expect(!off.switchesAnything)
        #expect(rig.machine.speaker == nil)
    }

    @Test func speakerOnWithoutASpeakerphoneIsRefused() {
        var rig = MachineRig([headset], defaultSink: headset.sinkName)
        _ = rig.settle(rig.start())
        guard case .noSpeakerphone? = rig.handle(.setSpeaker(.on)).refusals.first else {
            Issue.record("expected noSpeakerphone")
            return
        }
    }

    @Test func theToggleEndsWithCallMode() {
        var rig = phone()
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        _ = rig.settle(rig.handle(.setSpeaker(.on)))
        _ = rig.settle(rig.handle(.endCall("a")))
        #expect(rig.machine.speaker == nil)
        _ = rig.settle(rig.handle(.startCall(session("b"))))
        #expect(rig.machine.route?.id == earpiece.id, "a new call starts on the earpiece, not the speaker")
    }

    @Test func aToggledSpeakerThatGoesFallsBackRatherThanSilence() {
        var rig = phone(also: [headset])
        _ = rig.settle(rig.handle(.startCall(session("a"))))
        _ = rig.settle(rig.handle(.setSpeaker(.off)))
        #expect(rig.machine.route?.id == headset.id)
        _ = rig.settle(rig.unplug(headset.id))
        #expect(rig.machine.route?.id == earpiece.id)
    }
}

/// The speaker toggle outside calls: the media route, until call mode begins or ends.
struct RouteMachineSpeakerOutsideCallsTests {
    @Test func speakerOnOutsideACallPutsMediaOnTheSpeakerAndOffTakesItBack() {
        let speaker = MachineDevices.speaker(microphone: true)
        let headset = MachineDevices.bluetoothHeadset()
        var rig = MachineRig([speaker, headset], defaultSink: headset.sinkName, defaultSource: speaker.input?.deviceName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == headset.id)
        let on = rig.handle(.setSpeaker(.on))
        #expect(on.refusals.isEmpty)
        #expect(on.routedTo == [speaker.id])
        _ = rig.settle(on)
        #expect(rig.machine.route?.id == speaker.id)
        _ = rig.settle(rig.handle(.setSpeaker(.off)))
        #expect(rig.machine.route?.id == headset.id)
        // New media preferences outside a call are the newer word: the toggle goes.
        _ = rig.settle(rig.handle(.setPreferences(PreferenceList([.kind(.speakerphone)]))))
        #expect(rig.machine.speaker == nil)
        #expect(rig.machine.route?.id == speaker.id)
    }
}
