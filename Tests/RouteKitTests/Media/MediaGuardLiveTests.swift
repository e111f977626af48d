import MediaControl
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// Media pausing on real servers: what the loudspeaker would play when a headset goes; the
/// guard reading the server itself, and following a manager's mirror that carries the streams
/// (`mirrored`, as in `routectl daemon`).
@Suite("Media pausing on real servers")
struct MediaGuardLiveTests {
    @Test("a headset unplugged mid-stream: its stream is muted on the loudspeaker at once and unmuted after its bound; the loudspeaker's own stream is untouched",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func unplugMutesTheExposedStream(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_media", "Media Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let music = try await rig.play(on: headset)
            defer { music.stop() }
            let chime = try await rig.play(on: speaker)
            defer { chime.stop() }
            let musicStream = try #require(try await rig.stream(of: music))
            let mediaGuard = MediaGuard(server: rig.managerClient, manager: rig.manager, players: [],
                                        settings: MediaSettings(unmatchedMuteDuration: .milliseconds(500)),
                                        logger: LiveManagerRig.quietLogger)
            try await MediaEventLog.running(mediaGuard) { log in

                try await rig.unloadQuickly(headset)
                let held = try await log.next("the stream held", after: 0) { if case .held = $0 { true } else { false } }
                #expect(held == .held(reason: .outputLost("bt_media"), players: [], streams: [musicStream.index],
                                      unmatchedStreams: [musicStream.index]))
                // PulseAudio moves the stream to the loudspeaker; WirePlumber may leave a stream
                // that named its sink unlinked for a while: either way it is muted.
                try await rig.settle("the music muted") { try await rig.stream(of: music)?.isMuted == true }
                let movedTo = try await rig.sinkName(of: music)
                #expect(movedTo == nil || movedTo == speaker.name, "\(movedTo ?? "nowhere")")
                #expect(try await rig.stream(of: chime)?.isMuted == false, "the loudspeaker's own stream plays on")

                // No player to pause it: after its bound it plays on the loudspeaker again.
                let released = try await log.next("the stream released", after: 0) { if case .released = $0 { true } else { false } }
                #expect(released == .released(streams: [musicStream.index]))
                try await rig.settle("the music unmuted") { try await rig.stream(of: music)?.isMuted == false }
            }
        }
    }

    @Test("the guard stopped while it holds a stream muted: the stream is unmuted on the way out",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func stopUnmutes(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.wiredHeadset("usb_media", "Media USB Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.wiredHeadset), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let music = try await rig.play(on: headset)
            defer { music.stop() }
            let mediaGuard = MediaGuard(server: rig.managerClient, manager: rig.manager, players: [],
                                        settings: MediaSettings(unmatchedMuteDuration: .seconds(60)),
                                        logger: LiveManagerRig.quietLogger)
            try await MediaEventLog.running(mediaGuard) { log in
                try await rig.unloadQuickly(headset)
                _ = try await log.next("the music held", after: 0) { if case .held = $0 { true } else { false } }
                try await rig.settle("the music muted") { try await rig.stream(of: music)?.isMuted == true }
            }
            // Nothing the guard muted stays muted after it (PipeWire shows a change a moment
            // after it answers the request).
            try await rig.settle("the music unmuted after the guard") { try await rig.stream(of: music)?.isMuted == false }
        }
    }
}

extension LiveManagerRig {
    /// The sink input `stream` plays as, as the observer reads it.
    func stream(of stream: StreamProcess) async throws -> SinkInputInfo? {
        let pid = String(stream.processID)
        return try await observer.sinkInputs().first { $0.properties["application.process.id"] == pid }
    }
}
