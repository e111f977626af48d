import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// The call's microphone on real servers (issue 17): the mute belongs to the call, follows
/// every switch, and is released when call mode ends; in application scope it mutes the
/// call's own capture streams, never a source another application records from.
@Suite("AudioDeviceManager on real servers: the call's microphone")
struct ManagerMicrophoneTests {
    static let speaker = ConventionDevice.speakerphone(microphone: true)
    static let headset = ConventionDevice.bluetoothHeadset("bt_headset", microphone: true)

    static func isMuted(_ source: String, _ rig: LiveManagerRig) async throws -> Bool? {
        try await rig.observer.source(named: source)?.isMuted
    }

    @Test("system scope: muted on the headset, the headset goes, the built-in microphone is muted too; the call's end unmutes both",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func muteFollowsTheSwitch(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.speaker)
            let call = try await rig.manager.startCall()
            #expect(rig.manager.selectedAudioDevice?.id == Self.headset.id, "calls go by the call list: the headset first")
            let muted = try await rig.manager.setMicrophoneMuted(true)
            #expect(muted.microphone == Self.headset.microphoneName)
            // Seen by another connection once its event comes: on PipeWire a read on it right
            // after the manager's request can still show the node's old mute.
            try await waitUntil("the headset's microphone muted", observer: rig.observer) {
                try await Self.isMuted(Self.headset.microphoneName, rig) == true
            }
            #expect(try await Self.isMuted(Self.speaker.microphoneName, rig) == false, "what is not recorded from stays as it was")

            let mark = await rig.recorder.count
            try await rig.unplug(Self.headset)
            _ = try await rig.recorder.waitForRoute(to: Self.speaker.id, after: mark)
            try await waitUntil("the built-in microphone muted", observer: rig.observer) {
                try await Self.isMuted(Self.speaker.microphoneName, rig) == true
            }
            #expect(rig.manager.isMicrophoneMuted)

            await call.end()
            try await waitUntil("the built-in microphone unmuted", observer: rig.observer) {
                try await Self.isMuted(Self.speaker.microphoneName, rig) == false
            }
            #expect(!rig.manager.isMicrophoneMuted)
        }
    }

    @Test("system scope: nothing to record from is refused, never a monitor", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func noMicrophoneIsRefused(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            try await rig.start(expecting: speaker)
            await #expect(throws: CommandRefusal.noMicrophone) { try await rig.manager.setMicrophoneMuted(true) }
            #expect(try await rig.observer.source(named: speaker.name + ".monitor")?.isMuted == false)
        }
    }

    @Test("application scope: the call's capture streams are muted, new ones too; the source and others' streams are not",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func applicationScopeMutesTheCallsCaptures(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, scope: .application(.role("phone")), preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            let phone = try await rig.record(from: Self.speaker, role: "phone")
            let recorder = try await rig.record(from: Self.speaker)
            defer { phone.stop(); recorder.stop() }
            try await rig.start(expecting: Self.speaker, recordings: [phone])
            _ = try await rig.manager.setMicrophoneMuted(true)
            let observer = rig.observer
            @Sendable func muted(_ stream: StreamProcess) async throws -> Bool? {
                try await observer.sourceOutputs().first { $0.properties["application.process.id"] == String(stream.processID) }?.isMuted
            }
            try await waitUntil("the phone's capture muted", observer: rig.observer) { try await muted(phone) == true }
            #expect(try await muted(recorder) == false)
            #expect(try await Self.isMuted(Self.speaker.microphoneName, rig) == false)

            let later = try await rig.record(from: Self.speaker, role: "phone")
            defer { later.stop() }
            try await waitUntil("a capture started while muted is muted", observer: rig.observer) { try await muted(later) == true }

            _ = try await rig.manager.setMicrophoneMuted(false)
            try await waitUntil("unmuted", observer: rig.observer) {
                let first = try await muted(phone), second = try await muted(later)
                return first == false && second == false
            }
        }
    }
}
