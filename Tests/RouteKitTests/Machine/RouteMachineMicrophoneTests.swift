import PulseAudio
@testable import RouteKit
import Testing

/// The call's microphone (issue 17): never a monitor, chosen on its own or with the output,
/// its mute applied wherever audio is recorded from and kept across switches.
struct RouteMachineMicrophoneTests {
    let speaker = MachineDevices.speaker(microphone: true)
    let headset = MachineDevices.wiredHeadset()
    let deskMicrophone = MachineDevices.microphoneOnly()
    var builtIn: String { speaker.input?.deviceName ?? "" }
    var headsetMicrophone: String { headset.input?.deviceName ?? "" }

    func inACall(_ devices: [AudioDevice], on first: AudioDevice) -> MachineRig {
        var rig = MachineRig(devices, defaultSink: first.sinkName, defaultSource: first.input?.deviceName)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.startCall(CallSession(id: "a", state: .active, origin: .application))))
        return rig
    }

    @Test func muteIsRefusedWhenNothingIsRecordedFromNeverAMonitor() {
        // Headphones alone: no input, and the sink's monitor is no microphone.
        let headphones = MachineDevices.wiredHeadset(microphone: false)
        var rig = inACall([headphones], on: headphones)
        let said = rig.handle(.muteMicrophone(true))
        #expect(said.refusals == [.noMicrophone])
        #expect(said.sourceMutes.isEmpty)
        #expect(!rig.machine.isMicrophoneMuted)
    }

    @Test func muteGoesToTheSourceTheCallRecordsFrom() {
        var rig = inACall([speaker, headset], on: speaker)
        #expect(rig.machine.route?.id == headset.id)
        let muted = rig.handle(.muteMicrophone(true))
        #expect(muted.sourceMutes.map(\.source) == [headsetMicrophone])
        #expect(muted.sourceMutes.map(\.muted) == [true])
        #expect(muted.events == [.microphoneMuteChanged(isMuted: true)])
        #expect(rig.machine.state.isMicrophoneMuted)
    }

    @Test func theMuteFollowsTheSwitchWhenTheHeadsetGoes() {
        var rig = inACall([speaker, headset], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        // The headset goes: the built-in microphone must be muted before it becomes the default.
        let gone = rig.unplug(headset.id, defaultSink: speaker.sinkName, defaultSource: builtIn)
        let mutes = gone.sourceMutes
        #expect(mutes.map(\.source) == [builtIn])
        #expect(mutes.map(\.muted) == [true])
        _ = rig.settle(gone)
        #expect(rig.machine.route?.id == speaker.id)
        #expect(rig.machine.mutedSources == [builtIn])
        #expect(rig.machine.isMicrophoneMuted)
    }

    @Test func theMuteComesBeforeTheSwitchThatWouldMakeALiveMicrophoneTheDefault() {
        var rig = inACall([speaker], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        let plugged = rig.plug(headset)
        let muteAt = plugged.firstIndex { if case .muteSource(let source, true) = $0 { source == headsetMicrophone } else { false } }
        let routeAt = plugged.firstIndex { if case .route = $0 { true } else { false } }
        #expect(muteAt != nil && routeAt != nil && muteAt! < routeAt!)
        // Confirmed: the built-in microphone, no longer recorded from, is unmuted again.
        let confirmed = rig.settle(plugged)
        #expect(confirmed.sourceMutes.map(\.source) == [builtIn])
        #expect(confirmed.sourceMutes.map(\.muted) == [false])
        #expect(rig.machine.mutedSources == [headsetMicrophone])
    }

    @Test func callModeEndingUnmutes() {
        var rig = inACall([speaker, headset], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        let ended = rig.handle(.endCall("a"))
        #expect(ended.events.contains(.microphoneMuteChanged(isMuted: false)))
        #expect(ended.sourceMutes.contains { $0.source == headsetMicrophone && !$0.muted })
        #expect(!rig.machine.isMicrophoneMuted)
    }

    @Test func aMicrophoneChosenOnItsOwnIsRecordedFromWhateverTheOutput() throws {
        var rig = inACall([speaker, deskMicrophone], on: speaker)
        let chosen = rig.handle(.selectMicrophone(deskMicrophone.id))
        let plan = try #require(chosen.plans.first)
        #expect(plan.sink == speaker.sinkName)
        #expect(plan.source == deskMicrophone.input?.deviceName)
        _ = rig.settle(chosen)
        #expect(rig.machine.microphone == deskMicrophone.input?.deviceName)
        let muted = rig.handle(.muteMicrophone(true))
        #expect(muted.sourceMutes.map(\.source) == [deskMicrophone.input?.deviceName ?? ""])
    }

    @Test func choosingAMicrophoneThatIsNotThereIsRefused() {
        var rig = inACall([speaker], on: speaker)
        #expect(rig.handle(.selectMicrophone("no/such")).refusals == [.noSuchMicrophone("no/such")])
        let headphones = MachineDevices.wiredHeadset(microphone: false)
        _ = rig.plug(headphones)
        #expect(rig.handle(.selectMicrophone(headphones.id)).refusals == [.noSuchMicrophone(headphones.id)])
    }

    @Test func aRefusedMuteIsTriedAgainAtTheNextChange() {
        var rig = inACall([speaker], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        let refused = rig.refuseMute(builtIn)
        #expect(refused.sourceMutes.isEmpty, "not asked again at once")
        #expect(rig.machine.mutedSources.isEmpty)
        let next = rig.plug(MachineDevices.hdmi())
        #expect(next.sourceMutes.map(\.source) == [builtIn])
        #expect(rig.machine.deadline == nil, "no retry left waiting")
    }

    @Test func aRefusedMuteIsTriedAgainASecondLaterWhenNothingChanges() {
        var rig = inACall([speaker], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        let start = rig.now
        _ = rig.refuseMute(builtIn)
        #expect(rig.machine.deadline == start + RouteMachine.muteRetryDelay)
        let retried = rig.passDeadline()
        #expect(retried.sourceMutes.map(\.source) == [builtIn])
        #expect(retried.sourceMutes.map(\.muted) == [true])
        #expect(rig.machine.mutedSources == [builtIn])
    }

    /// The engine performs what each answer asks before it reads the server's next events: a
    /// mute asked again at once of a source that has gone, its removal still on its way, was
    /// refused again at once, without end (seen on PipeWire 1.4: the switch never came).
    @Test func aVanishedMicrophoneIsNotAskedAgainAndAgain() {
        var rig = inACall([speaker, headset], on: speaker)
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.handle(.muteMicrophone(true)).sourceMutes.map(\.source) == [headsetMicrophone])
        // Its source is gone; the machine still shows the headset.
        let refused = rig.refuseMute(headsetMicrophone)
        #expect(refused.sourceMutes.isEmpty)
        #expect(refused.events == [.microphoneFailed(source: headsetMicrophone, reason: RouteMachineMicrophoneTests.gone)])
        // The removal arrives: the route moves and the built-in microphone is muted first.
        let unplugged = rig.unplug(headset.id)
        #expect(unplugged.sourceMutes.map(\.source) == [builtIn])
        #expect(unplugged.sourceMutes.map(\.muted) == [true])
        _ = rig.settle(unplugged)
        #expect(rig.machine.route?.id == speaker.id)
        #expect(rig.machine.mutedSources == [builtIn])
        #expect(rig.machine.deadline == nil, "nothing left to retry")
    }

    @Test func aRefusedUnmuteIsNotHeldBack() {
        var rig = inACall([speaker], on: speaker)
        _ = rig.handle(.muteMicrophone(true))
        _ = rig.handle(.muteMicrophone(false))
        _ = rig.machine.followMicrophone(rig.machine.microphoneMuteFailed(builtIn, muting: false, Self.gone, now: rig.now))
        #expect(rig.machine.deadline == nil)
        #expect(rig.handle(.muteMicrophone(true)).sourceMutes.map(\.source) == [builtIn])
    }

    static let gone = SwitchFailure(step: .microphone, code: .noSuchEntity, message: "mute source: No such entity")
}

extension MachineRig {
    /// The server refuses the mute of `source`, as the engine tells the machine (the
    /// microphone's mute followed after it).
    mutating func refuseMute(_ source: String) -> [RouteAction] {
        let actions = machine.microphoneMuteFailed(source, muting: true, RouteMachineMicrophoneTests.gone, now: now)
        return machine.followMicrophone(actions)
    }
}

/// A mute undone behind the machine's back (a session manager restoring its saved state onto
/// a new source) is applied again.
struct RouteMachineMuteUndoneTests {
    @Test func aSourceShownLiveAgainIsMutedAgain() {
        let speaker = MachineDevices.speaker(microphone: true)
        let source = speaker.input?.deviceName ?? ""
        var rig = MachineRig([speaker], defaultSink: speaker.sinkName, defaultSource: source)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.startCall(CallSession(id: "a", state: .active, origin: .application))))
        #expect(rig.handle(.muteMicrophone(true)).sourceMutes.map(\.source) == [source])
        let undone = rig.machine.followMicrophone(rig.machine.microphoneMuteUndone([source]))
        #expect(undone.sourceMutes.map(\.source) == [source])
        #expect(undone.sourceMutes.map(\.muted) == [true])
        // A source the machine never muted is left as it is.
        #expect(rig.machine.followMicrophone(rig.machine.microphoneMuteUndone(["someone_else"])).isEmpty)
    }
}
