import PulseAudio
@testable import RouteKit
import Testing

/// What the machine writes down for stop() (<doc:WhatWinsWhen>, "Stopping"; defects 1, 8, 14).
struct RouteMachineLedgerTests {
    let speaker = MachineDevices.speaker(microphone: true)
    let headset = MachineDevices.bluetoothHeadset()
    let hdmi = MachineDevices.hdmi()

    @Test func startNotesWhatItFound() {
        let configured = ConfiguredDefaults(sink: "alsa_output.configured", source: nil)
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName, defaultSource: speaker.input?.deviceName)
        _ = rig.start(configured: configured)
        #expect(rig.machine.ledger.foundSink == speaker.sinkName)
        #expect(rig.machine.ledger.foundSource == speaker.input?.deviceName)
        #expect(rig.machine.ledger.configured == configured)
        #expect(rig.machine.ledger.isEmpty)
        #expect(rig.machine.ledger.ownsDefaultSink)
    }

    @Test func recordedChangesAreWrittenDownWithWhatWasThereFirst() throws {
        var machine = RouteMachine(configuration: .init())
        machine.record(.defaultSink("a"))
        machine.record(.defaultSink("b"))
        machine.record(.defaultSource("mic"))
        machine.record(.port(device: "sink0", output: true, original: "speaker", selected: "headphones"))
        machine.record(.port(device: "sink0", output: true, original: "headphones", selected: "line-out"))
        machine.record(.port(device: "source0", output: false, original: "internal-mic", selected: "headset-mic"))
        machine.record(.profile(card: "card0", original: "a2dp-sink", selected: "off"))
        machine.record(.profile(card: "card0", original: "off", selected: "headset-head-unit"))
        machine.record(.streamMoved(index: 7, output: true, name: "music", client: 3, from: "a", to: "b"))
        machine.record(.streamMoved(index: 7, output: true, name: "music", client: 3, from: "b", to: "c"))
        machine.record(.streamMoved(index: 9, output: false, name: "call", client: nil, from: "mic", to: "headset-mic"))

        let ledger = machine.ledger
        #expect(ledger.setSink == "b")
        #expect(ledger.setSource == "mic")
        #expect(ledger.sinkPorts["sink0"]?.original == "speaker")
        #expect(ledger.sinkPorts["sink0"]?.selected == "line-out")
        #expect(ledger.sourcePorts["source0"]?.original == "internal-mic")
        #expect(ledger.profiles["card0"]?.original == "a2dp-sink")
        #expect(ledger.profiles["card0"]?.selected == "headset-head-unit")
        let music = try #require(ledger.playback[7])
        #expect(music.original == "a")
        #expect(music.movedTo == "c")
        #expect(music.name == "music")
        #expect(music.client == 3)
        #expect(ledger.recording[9]?.movedTo == "headset-mic")
        #expect(!ledger.isEmpty)
    }

    @Test func aStreamThatEndedIsForgotten() {
        var machine = RouteMachine(configuration: .init())
        machine.record(.streamMoved(index: 7, output: true, name: "music", client: 3, from: "a", to: "b"))
        machine.record(.streamMoved(index: 7, output: false, name: "recorder", client: 3, from: "mic", to: "headset-mic"))
        machine.record(.streamGone(index: 7, output: true))
        #expect(machine.ledger.playback.isEmpty)
        #expect(machine.ledger.recording[7] != nil)  // the recording stream with the same index stays
        machine.record(.streamGone(index: 7, output: false))
        #expect(machine.ledger.isEmpty)
    }

    /// On the headset, the machine having set its sink as the default.
    func onHeadset() throws -> MachineRig {
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: speaker.sinkName,
                             defaultSource: speaker.input?.deviceName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        let started = rig.start()
        let plan = try #require(started.plans.first)
        rig.machine.record(.defaultSink(plan.sink))
        _ = rig.settle(started)
        #expect(rig.machine.ledger.ownsDefaultSink)
        return rig
    }

    @Test func aDefaultChosenBySomeoneElseWhileTheDeviceIsThereIsTheirs() throws {
        var rig = try onHeadset()
        rig.advance(.seconds(1))
        _ = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(!rig.machine.ledger.ownsDefaultSink)
    }

    @Test func puttingTheDefaultBackMakesItTheMachinesAgain() throws {
        var rig = try onHeadset()
        rig.advance(.seconds(1))
        let taken = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(taken.routedTo == [headset.id])
        _ = rig.settle(taken)
        #expect(rig.machine.ledger.ownsDefaultSink)
    }

    @Test func theServersFallbackWhenTheDeviceGoesIsNotSomeoneElsesChoice() throws {
        var rig = try onHeadset()
        _ = rig.unplug(headset.id, defaultSink: speaker.sinkName)
        #expect(rig.machine.ledger.ownsDefaultSink)
    }

    @Test func aDefaultChosenAfterTheDeviceLeftIsTheirs() throws {
        // Defect 8: the headset goes, the server falls back, then the user picks HDMI.
        var rig = try onHeadset()
        let gone = rig.unplug(headset.id, defaultSink: speaker.sinkName)
        _ = rig.settle(gone)
        rig.advance(.seconds(1))
        _ = rig.handle(.setPreferences(PreferenceList([.kind(.bluetooth)])))  // nothing applies now
        let chosen = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(chosen.plans.isEmpty)
        #expect(!rig.machine.ledger.ownsDefaultSink)
    }

    @Test func stoppingClearsTheLedger() throws {
        var rig = try onHeadset()
        rig.machine.record(.streamMoved(index: 1, output: true, name: "music", client: nil, from: speaker.sinkName,
                                        to: headset.sinkName))
        _ = rig.machine.stopped(restoredRoute: rig.device(speaker.id))
        #expect(rig.machine.ledger.isEmpty)
        #expect(rig.machine.ledger.foundSink == nil)
    }
}
