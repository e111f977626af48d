import PulseAudio
@testable import RouteKit
import Testing

/// What a one-shot run hands to the next (``RouteMemory``): taken up before the start, the
/// next run goes on as if the engine had never stopped.
struct RouteMachineMemoryTests {
    let speaker = MachineDevices.speaker(microphone: true)
    let headset = MachineDevices.wiredHeadset()
    var builtIn: String { speaker.input?.deviceName ?? "" }

    /// A call on the speaker (the toggle on), the microphone muted, as a first run leaves it.
    func firstRun() -> MachineRig {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtIn)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.callAudio(true)))
        _ = rig.settle(rig.handle(.setSpeaker(.on)))
        _ = rig.settle(rig.handle(.muteMicrophone(true)))
        return rig
    }

    @Test func aCallsToggleAndMuteAreHandedOnAndTheNextRunStartsWithoutMovingTheRoute() {
        let first = firstRun()
        #expect(first.machine.route?.id == speaker.id)
        let memory = first.machine.memory
        #expect(memory.isCallAudioOn)
        #expect(memory.speaker == .on)
        #expect(memory.isMicrophoneMuted)
        #expect(memory.mutedSources == [builtIn])

        var next = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtIn)
        next.machine.recall(memory)
        let started = next.start()
        #expect(started.plans.isEmpty, "the toggle keeps the call on the speaker: \(started)")
        #expect(started.sourceMutes.isEmpty, "muted already")
        #expect(next.machine.isCallActive)
        #expect(next.machine.memory == memory)

        // Without the memory, the call list would have taken the route to the headset.
        var forgetful = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtIn)
        forgetful.machine.recall(RouteMemory(isCallAudioOn: true))
        #expect(forgetful.start().plans.map(\.device.id) == [headset.id])
    }

    @Test func outsideACallOnlyTheMuteIsHandedOn() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: builtIn)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.setSpeaker(.off)))
        #expect(rig.machine.memory.isEmpty)
        _ = rig.settle(rig.handle(.muteMicrophone(true)))
        #expect(rig.machine.memory.isMicrophoneMuted)
        #expect(rig.machine.memory.speaker == nil)
    }

    @Test func unmutingAMicrophoneTheEngineDidNotMuteUnmutesItAnyway() {
        var rig = MachineRig([speaker], defaultSink: speaker.sinkName, defaultSource: builtIn)
        _ = rig.settle(rig.start())
        let unmuted = rig.handle(.muteMicrophone(false))
        #expect(unmuted.sourceMutes.map(\.source) == [builtIn])
        #expect(unmuted.sourceMutes.map(\.muted) == [false])
        #expect(unmuted.events.isEmpty, "the state did not change")
    }
}

extension RouteMemory {
    /// A memory with call audio on or off and nothing else.
    init(isCallAudioOn: Bool) {
        self.init()
        self.isCallAudioOn = isCallAudioOn
    }
}
