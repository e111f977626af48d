import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// ``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)`` on real servers: one
/// command carried out by the engine, confirmed by the server, and left in place.
@Suite("A one-shot run of the engine")
struct ManagerOneShotTests {
    static let speaker = ConventionDevice.speakerphone()
    static let headset = ConventionDevice.wiredHeadset("usb_headset")
    static let earpiece = ConventionDevice.earpiece()

    /// A speaker, a wired headset and an earpiece, audio on the speaker; the manager not started.
    static func onTheSpeaker(_ kind: SoundServerKind, _ body: @escaping @Sendable (LiveManagerRig) async throws -> Void) async throws {
        try await LiveManagerRig.run(kind, preferences: []) { rig in
            for device in [speaker, headset, earpiece] { try await rig.plug(device) }
            try await rig.observer.setDefaultSink(speaker.name)
            try await rig.settle("the speaker the default") { try await rig.defaultSink() == speaker.name }
            try await body(rig)
        }
    }

    @Test("speaker off goes to the call list's wired headset, and the change stays after the run", arguments: SoundServerKind.allCases)
    func speakerOffStays(kind: SoundServerKind) async throws {
        try await Self.onTheSpeaker(kind) { rig in

            let off = try await AudioDeviceManager.perform(.setSpeaker(.off), on: rig.managerClient, logger: LiveManagerRig.quietLogger)
            #expect(off.outcome.route?.id == Self.headset.id)
            // Read as another client sees it: on PipeWire through renewed connections, as a
            // long-lived one can miss a change of the default for good (Docs/Reliability.md).
            try await rig.settle("the headset the default after the run, not put back at its end") {
                try await rig.defaultSink() == Self.headset.name
            }
            #expect(off.memory.isEmpty, "outside a call nothing is handed on")

            let use = try await AudioDeviceManager.perform(.select(Self.earpiece.id), on: rig.managerClient,
                                                           logger: LiveManagerRig.quietLogger)
            #expect(use.outcome.route?.id == Self.earpiece.id)
            try await rig.settle("the earpiece the default after the run") { try await rig.defaultSink() == Self.earpiece.name }
        }
    }

    @Test("a call started in one run is ended by the next, with what the first handed on", arguments: SoundServerKind.allCases)
    func callAcrossRuns(kind: SoundServerKind) async throws {
        try await Self.onTheSpeaker(kind) { rig in

            let start = try await AudioDeviceManager.perform(.callAudio(true), on: rig.managerClient, logger: LiveManagerRig.quietLogger)
            #expect(start.changedState)
            #expect(start.outcome.route?.id == Self.headset.id, "the call list: the wired headset")
            #expect(start.memory.isCallAudioOn)

            let again = try await AudioDeviceManager.perform(.callAudio(true), on: rig.managerClient, remembering: start.memory,
                                                             logger: LiveManagerRig.quietLogger)
            #expect(!again.changedState, "on already")

            let end = try await AudioDeviceManager.perform(.callAudio(false), on: rig.managerClient, remembering: again.memory,
                                                           logger: LiveManagerRig.quietLogger)
            #expect(end.changedState)
            #expect(end.memory.isEmpty)
        }
    }
}
