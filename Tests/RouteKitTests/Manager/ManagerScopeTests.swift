import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// What a switch moves, on real servers: in system scope the default sink and source and
/// every stream; in application scope (`media.role=phone`) only the selected streams, new
/// ones included, and never the defaults or anyone else's streams. Both devices here have a
/// microphone, so that inputs are seen to move (or stay) with outputs.
@Suite("AudioDeviceManager on real servers: scope")
struct ManagerScopeTests {
    static let speaker = ConventionDevice.speakerphone(microphone: true)
    static let headset = ConventionDevice.bluetoothHeadset("bt_headset", microphone: true)

    @Test("system scope: the default sink and source and every stream move, back and forth",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func systemScope(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, scope: .system, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            let phone = try await rig.play(on: Self.speaker, role: "phone")
            let music = try await rig.play(on: Self.speaker, role: "music")
            let microphone = try await rig.record(from: Self.speaker, role: "phone")
            let recorder = try await rig.record(from: Self.speaker)
            defer { for stream in [phone, music, microphone, recorder] { stream.stop() } }
            let playing = [phone, music], recording = [microphone, recorder]
            try await rig.start(expecting: Self.speaker, streams: playing, recordings: recording)

            var mark = await rig.recorder.count
            try await rig.plug(Self.headset)
            #expect(try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark).reason == .deviceAppeared)
            try await rig.expectRoute(on: Self.headset, streams: playing, recordings: recording, "after the headset appeared")

            // A stream that starts afterwards, on no sink in particular, goes to the new default.
            let later = try await StreamProcess(on: rig.server, .playback, device: "@DEFAULT_SINK@")
            defer { later.stop() }
            try await rig.expectRoute(on: Self.headset, streams: playing + [later], recordings: recording,
                                      "with a stream started after the switch")

            mark = await rig.recorder.count
            try await rig.unplug(Self.headset)
            #expect(try await rig.recorder.waitForRoute(to: Self.speaker.id, after: mark).reason == .deviceFailed)
            try await rig.expectRoute(on: Self.speaker, streams: playing + [later], recordings: recording, "after the headset went")
        }
    }

    @Test("application scope: only phone streams move, new ones too; the defaults and other streams stay",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func applicationScope(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, scope: .application(.role("phone")),
                                     preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            // The user's configured defaults, which both servers keep when other devices appear
            // (PulseAudio 16 would otherwise move them to the headset, which it ranks higher).
            try await rig.observer.setDefaultSink(Self.speaker.name)
            try await rig.observer.setDefaultSource(Self.speaker.microphoneName)
            try await rig.expectServerDefault(Self.speaker, "as configured")
            let phone = try await rig.play(on: Self.speaker, role: "phone")
            let phoneMicrophone = try await rig.record(from: Self.speaker, role: "phone")
            let music = try await rig.play(on: Self.speaker, role: "music")
            let otherRecording = try await rig.record(from: Self.speaker)
            defer { for stream in [phone, phoneMicrophone, music, otherRecording] { stream.stop() } }
            try await withTimeout("manager start") { try await rig.manager.start() }
            #expect(try await rig.recorder.waitForRoute(to: Self.speaker.id, after: 0).reason == .started)

            var mark = await rig.recorder.count
            try await rig.plug(Self.headset)
            #expect(try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark).reason == .deviceAppeared)
            try await expectApplicationRoute(rig, on: Self.headset, phone: ([phone], [phoneMicrophone]),
                                             others: ([music], [otherRecording]), "after the headset appeared")

            // Phone streams that start after the switch, on the speaker, are moved too; other
            // new streams are left where they started.
            let laterPhone = try await StreamProcess(on: rig.server, .playback, device: Self.speaker.name, properties: ["media.role": "phone"])
            let laterPhoneMicrophone = try await StreamProcess(on: rig.server, .record, device: Self.speaker.microphoneName,
                                                         properties: ["media.role": "phone"])
            let laterMusic = try await StreamProcess(on: rig.server, .playback, device: Self.speaker.name, properties: ["media.role": "music"])
            defer { for stream in [laterPhone, laterPhoneMicrophone, laterMusic] { stream.stop() } }
            try await expectApplicationRoute(rig, on: Self.headset, phone: ([phone, laterPhone], [phoneMicrophone, laterPhoneMicrophone]),
                                             others: ([music, laterMusic], [otherRecording]), "with streams started after the switch")

            // The headset goes: the phone streams are on the speaker with the route.
            mark = await rig.recorder.count
            try await rig.unplug(Self.headset)
            #expect(try await rig.recorder.waitForRoute(to: Self.speaker.id, after: mark).reason == .deviceFailed)
            try await expectApplicationRoute(rig, on: Self.speaker, phone: ([phone, laterPhone], [phoneMicrophone, laterPhoneMicrophone]),
                                             others: ([music, laterMusic], [otherRecording]), "after the headset went")

            // A phone stream started during the run on the default, moved by the manager, is
            // not left pinned by stop(): it goes back, and then follows the default again.
            mark = await rig.recorder.count
            try await rig.plug(Self.headset)
            try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark)
            let follower = try await StreamProcess(on: rig.server, .playback, device: "@DEFAULT_SINK@", properties: ["media.role": "phone"])
            defer { follower.stop() }
            try await rig.settle("the new phone stream on the headset") { try await rig.sinkName(of: follower) == Self.headset.name }
            await rig.manager.stop()
            try await rig.settle("the phone stream back on the default after stop") {
                try await rig.sinkName(of: follower) == Self.speaker.name
            }
            try await rig.observer.setDefaultSink(Self.headset.name)
            try await rig.settle("the phone stream following the user's new default") {
                try await rig.sinkName(of: follower) == Self.headset.name
            }
        }
    }

    /// pipewire-pulse shows a moved stream on its new sink, to the client that moved it, for
    /// one second, then on its old one until the session manager relinks it. Here WirePlumber
    /// is stopped through that second and stop() comes after it: the stream must end where it
    /// was. (The manager itself moves a phone stream it sees off the route again, so stop()
    /// seldom reads it on its old sink here; `MovedStreamRestoreTests` pins the rule for when it does.)
    @Test("on PipeWire, a phone stream the manager moved, shown back where it was before WirePlumber relinked it, is put back by stop()",
          .timeLimit(.minutes(1)))
    func shownWhereItWasIsPutBack() async throws {
        try await LiveManagerRig.run(.pipewire, scope: .application(.role("phone")),
                                     preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.observer.setDefaultSink(Self.speaker.name)
            let phone = try await rig.play(on: Self.speaker, role: "phone")
            defer { phone.stop() }
            try await withTimeout("manager start") { try await rig.manager.start() }
            #expect(try await rig.recorder.waitForRoute(to: Self.speaker.id, after: 0).reason == .started)

            try rig.server.freezeSessionManager()
            var frozen = true
            defer { if frozen { try? rig.server.thawSessionManager() } }
            let mark = await rig.recorder.count
            await rig.manager.setAudioDevice(.device(Self.headset.id))
            _ = try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark)
            // As the manager's connection shows it (pipewire-pulse keeps a view per client, and
            // shows a move on its target to the client that asked for it alone).
            let manager = rig.managerClient
            try await waitUntil("the phone stream shown on the headset it was moved to", observer: manager) {
                try await rig.sinkName(of: phone, on: manager) == Self.headset.name
            }
            try await waitUntil("the phone stream shown on the speaker again, WirePlumber not having relinked it", observer: manager) {
                try await rig.sinkName(of: phone, on: manager) == Self.speaker.name
            }
            await rig.manager.stop()
            try rig.server.thawSessionManager()
            frozen = false

            // A stream started now is placed once WirePlumber has worked through what came
            // before it, the moves of the phone stream included.
            let later = try await rig.play(on: Self.speaker)
            later.stop()
            #expect(try await rig.sinkName(of: phone) == Self.speaker.name, "put back, not left headed for the headset")
        }
    }

    /// Waits until the manager's route is `device` and every phone stream plays or records
    /// there, then checks that the defaults and the other streams stayed on the speaker.
    private func expectApplicationRoute(_ rig: LiveManagerRig, on device: ConventionDevice,
                                        phone: (playing: [StreamProcess], recording: [StreamProcess]),
                                        others: (playing: [StreamProcess], recording: [StreamProcess]), _ what: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await rig.settle("phone streams on \(device) \(what)") {
            // The route with its microphone: the manager moves the recordings before it reports
            // the route's input (it reports once every move is answered), so recordings already
            // on the microphone do not say that the route has it yet.
            guard let selected = rig.manager.selectedAudioDevice, selected.id == device.id,
                  selected.input?.deviceName == device.microphoneName else { return false }
            for stream in phone.playing {
                if try await rig.sinkName(of: stream) != device.name { return false }
            }
            for stream in phone.recording {
                if try await rig.sourceName(of: stream) != device.microphoneName { return false }
            }
            // The others must have shown up somewhere before they can be said to have stayed.
            for stream in others.playing {
                if try await rig.sinkName(of: stream) == nil { return false }
            }
            for stream in others.recording {
                if try await rig.sourceName(of: stream) == nil { return false }
            }
            return true
        }
        let selected = rig.manager.selectedAudioDevice
        // The manager's events say how a route that settled with its microphone lost it since.
        let events = await rig.recorder.transcript()
        #expect(selected?.output?.deviceName == device.name, "\(what); events: \(events)", sourceLocation: sourceLocation)
        #expect(selected?.input?.deviceName == device.microphoneName, "\(what); events: \(events)", sourceLocation: sourceLocation)
        let info = try await rig.observer.serverInfo()
        #expect(info.defaultSinkName == Self.speaker.name, "the default sink is left alone \(what)", sourceLocation: sourceLocation)
        #expect(info.defaultSourceName == Self.speaker.microphoneName, "the default source is left alone \(what)",
                sourceLocation: sourceLocation)
        for stream in others.playing {
            #expect(try await rig.sinkName(of: stream) == Self.speaker.name, "other playback is left alone \(what)",
                    sourceLocation: sourceLocation)
        }
        for stream in others.recording {
            #expect(try await rig.sourceName(of: stream) == Self.speaker.microphoneName, "other recording is left alone \(what)",
                    sourceLocation: sourceLocation)
        }
    }
}
