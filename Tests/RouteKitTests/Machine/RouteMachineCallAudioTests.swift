import PulseAudio
@testable import RouteKit
import Testing

/// Call audio: the route's device in both directions, in its call profile; put back after
/// (<doc:WhatWinsWhen>, "Calls"; defect 15).
struct RouteMachineCallAudioTests {
    let speaker = MachineDevices.speaker(microphone: true)
    let headset = MachineDevices.bluetoothHeadset()
    let inCall = MachineDevices.bluetoothHeadset(profile: .headsetUnit)
    var card: String { headset.card ?? "" }
    var builtInMicrophone: String { speaker.input?.deviceName ?? "" }

    /// On the headset in A2DP (preferred), the built-in microphone the default source.
    func onHeadset(also devices: [AudioDevice] = []) -> MachineRig {
        var rig = MachineRig([speaker, headset] + devices, defaultSink: speaker.sinkName, defaultSource: builtInMicrophone,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        return rig
    }

    /// Turns call audio on and lets the card and the server do what the machine asks: the
    /// headset comes back in its headset profile, the server's default falls back to the
    /// speaker meanwhile (the A2DP sink went), and the route is confirmed.
    func inACall(_ rig: inout MachineRig) -> [RouteAction] {
        var said = rig.handle(.callAudio(true))
        guard !said.profileSelections.isEmpty else { return said }
        rig.machine.record(.profile(card: card, original: MachineDevices.BluetoothProfile.a2dp.rawValue,
                                    selected: MachineDevices.BluetoothProfile.headsetUnit.rawValue))
        let shown = rig.change(inCall, defaultSink: speaker.sinkName)
        said += shown + rig.settle(shown)
        return said
    }

    @Test func callAudioSelectsTheCallProfileFirstThenRoutes() throws {
        var rig = onHeadset()
        let on = rig.handle(.callAudio(true))
        #expect(on.events.contains(.callAudioChanged(isActive: true)))
        #expect(on.profileSelections.map(\.card) == [card])
        #expect(on.profileSelections.map(\.profile) == [MachineDevices.BluetoothProfile.headsetUnit.rawValue])
        #expect(on.profileSelections.map(\.device) == [headset.id])
        #expect(on.plans.isEmpty)
        #expect(rig.machine.isCallActive)
        #expect(rig.machine.state.isCallAudioActive)
        #expect(rig.machine.pending?.stage == .profile(MachineDevices.BluetoothProfile.headsetUnit.rawValue))
        rig.machine.record(.profile(card: card, original: "a2dp-sink", selected: "headset-head-unit"))

        // Other news before the card shows the profile: still waiting.
        let meanwhile = rig.plug(MachineDevices.hdmi())
        #expect(meanwhile.plans.isEmpty)

        // The headset shows in its headset profile: now its sink and microphone are asked for.
        let shown = rig.change(inCall, defaultSink: speaker.sinkName)
        let plan = try #require(shown.plans.first)
        #expect(plan.sink == inCall.sinkName)
        #expect(plan.source == inCall.input?.deviceName)
        #expect(plan.setsSink && plan.setsSource)

        // Confirmed: the same device, now with a microphone; announced.
        let confirmed = rig.confirm(plan)
        #expect(confirmed.routeChanges.isEmpty)
        #expect(confirmed.events.contains(.inputChanged(route: try #require(rig.device(headset.id)))))
        #expect(rig.machine.route?.input?.deviceName == inCall.input?.deviceName)
    }

    @Test func aCardStillBringingUpTheCallProfileIsWaitedFor() throws {
        // The card is on the headset profile already, its sink and source not there yet (a
        // Bluetooth SCO link takes a moment): that is what profileTimeout is for, not a device
        // that went away.
        var rig = onHeadset()
        _ = rig.handle(.callAudio(true))
        rig.machine.record(.profile(card: card, original: "a2dp-sink", selected: "headset-head-unit"))
        let comingUp = inCall.altered {
            $0.output?.deviceName = nil
            $0.input?.deviceName = nil
        }
        rig.advance(.milliseconds(200))
        let halfway = rig.change(comingUp, defaultSink: speaker.sinkName)
        #expect(halfway.failures.isEmpty)
        #expect(halfway.plans.isEmpty)
        #expect(rig.machine.pending?.stage == .profile("headset-head-unit"))
        #expect(rig.machine.route?.id == headset.id)

        rig.advance(.milliseconds(300))
        let shown = rig.change(inCall, defaultSink: speaker.sinkName)
        #expect(shown.routedTo == [headset.id])
        _ = rig.settle(shown)
        #expect(rig.machine.route?.input?.deviceName == inCall.input?.deviceName)
    }

    @Test func endingCallAudioPutsTheProfileBack() throws {
        var rig = onHeadset()
        _ = inACall(&rig)
        #expect(rig.machine.ledger.profiles[card]?.selected == "headset-head-unit")

        let off = rig.handle(.callAudio(false))
        #expect(off.events.contains(.callAudioChanged(isActive: false)))
        #expect(off.contains(.restoreProfile(card: card, profile: "a2dp-sink", ifStill: "headset-head-unit")))
        let restoredAt = try #require(off.firstIndex(of: .restoreProfile(card: card, profile: "a2dp-sink", ifStill: "headset-head-unit")))
        #expect(off.indices.filter { if case .route = off[$0] { true } else { false } }.allSatisfy { $0 > restoredAt })
        #expect(!rig.machine.isCallActive)
        #expect(rig.machine.ledger.profiles[card] == nil)  // put back by call audio, not by stop()

        // The card is back in A2DP: the route stays on the headset.
        let back = rig.change(headset, defaultSink: speaker.sinkName)
        _ = rig.settle(back)
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.devices.first { $0.isActive }?.id == headset.id)
    }

    @Test func endingCallAudioPutsBackTheDefaultSourceTheCallFound() {
        let webcam = MachineDevices.microphoneOnly("usb-webcam")
        var rig = onHeadset(also: [webcam])
        _ = inACall(&rig)
        #expect(rig.defaultSource == inCall.input?.deviceName)

        var said = rig.handle(.callAudio(false))
        // The card is back in A2DP; its microphone went, and the server chose the webcam's.
        let back = rig.change(headset, defaultSink: speaker.sinkName, defaultSource: webcam.input?.deviceName)
        said += back + rig.settle(back)
        #expect(said.contains(.restoreDefaultSource(builtInMicrophone)))
        // Profiles first, the default source last.
        let profileAt = said.firstIndex { if case .restoreProfile = $0 { true } else { false } }
        let sourceAt = said.firstIndex(of: .restoreDefaultSource(builtInMicrophone))
        #expect(profileAt != nil && sourceAt != nil && profileAt! < sourceAt!)
    }

    @Test(arguments: [MachineDevices.bluetoothHeadset(callProfile: false), MachineDevices.bluetoothSink()])
    func aDeviceWithoutACallProfileIsUsedAsItIs(_ plain: AudioDevice) {
        var rig = MachineRig([speaker, plain], defaultSink: speaker.sinkName, defaultSource: builtInMicrophone,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        let on = rig.handle(.callAudio(true))
        #expect(on.events == [.callsChanged(rig.machine.calls), .callAudioChanged(isActive: true)])
        #expect(!on.switchesAnything)
        #expect(rig.machine.route?.id == plain.id)
    }

    @Test func aRefusedCallProfileFallsThroughAndTheDeviceIsTriedAgainAfterTheCall() {
        var rig = onHeadset()
        _ = rig.handle(.callAudio(true))
        let refused = rig.machine.switchFailed(headset.id, refusal(.profile, .inputOutput), now: rig.now)
        #expect(refused.failedDevices == [headset.id])
        #expect(refused.routedTo == [speaker.id])
        #expect(rig.settle(refused).routeChanges == [SeenRouteChange(headset.id, speaker.id, .fellThrough)])

        let off = rig.handle(.callAudio(false))
        #expect(off.routedTo == [headset.id])
        #expect(rig.settle(off).routeChanges == [SeenRouteChange(speaker.id, headset.id, .callEnded)])
    }

    @Test func callAudioTriesAgainADeviceThatWasSetAside() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtInMicrophone,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        #expect(rig.machine.route?.id == speaker.id)

        let said = inACall(&rig)
        #expect(said.profileSelections.map(\.device) == [headset.id])
        #expect(said.routeChanges == [SeenRouteChange(speaker.id, headset.id, .callStarted)])
        #expect(rig.machine.route?.input?.deviceName == inCall.input?.deviceName)
    }

    @Test func aSelectionSurvivesItsCardSwitchingToTheCallProfileAndBack() throws {
        // The selection holds "for as long as its device is present and not unavailable": a
        // card between two profiles is both.
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtInMicrophone,
                             preferences: PreferenceList([.kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.select(headset.id)))
        #expect(rig.machine.route?.id == headset.id)

        var said = rig.handle(.callAudio(true))
        rig.machine.record(.profile(card: card, original: "a2dp-sink", selected: "headset-head-unit"))
        let comingUp = inCall.altered {
            $0.output?.deviceName = nil
            $0.input?.deviceName = nil
        }
        said += rig.change(comingUp, defaultSink: speaker.sinkName)
        #expect(rig.machine.selection == headset.id)
        let shown = rig.change(inCall, defaultSink: speaker.sinkName)
        said += shown + rig.settle(shown)
        #expect(rig.machine.route?.input?.deviceName == inCall.input?.deviceName)

        said += rig.handle(.callAudio(false))
        let back = rig.change(headset, defaultSink: speaker.sinkName, defaultSource: builtInMicrophone)
        said += back + rig.settle(back)
        #expect(!said.routedTo.contains(speaker.id))
        #expect(rig.machine.selection == headset.id)
        #expect(rig.machine.route?.id == headset.id)
    }

    @Test func stoppingEndsCallAudio() {
        var rig = onHeadset()
        _ = inACall(&rig)
        #expect(rig.machine.isCallActive)

        let stopped = rig.machine.stopped(restoredRoute: rig.device(speaker.id))
        #expect(stopped.routeChanges == [SeenRouteChange(headset.id, speaker.id, .stopped)])
        #expect(!rig.machine.isCallActive)
        #expect(!rig.machine.state.isCallAudioActive)
        #expect(rig.machine.route == nil)
        #expect(rig.machine.ledger.isEmpty)

        // stop() put the card back; a new start does not go back to the call profile.
        _ = rig.change(headset, defaultSink: speaker.sinkName)
        let restarted = rig.start()
        #expect(restarted.profileSelections.isEmpty)
        #expect(restarted.routedTo == [headset.id])
        #expect(restarted.plans.first?.sink == headset.sinkName)
    }
}
