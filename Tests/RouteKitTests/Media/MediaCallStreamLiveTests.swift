import MediaControl
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// A headset failing under a call, and under music with a second headset present, on real
/// servers: what a second connection sees of the streams at every event; the guard reading the
/// server itself, and following a manager's mirror that carries the streams (`mirrored`).
@Suite("Media pausing on real servers: calls and a second headset")
struct MediaCallStreamLiveTests {
    @Test("a headset fails mid-call: the phone stream is never muted and plays on the fallback; the music beside it is held as before",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func callStreamNeverMuted(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_call", "Call Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            // The call follows the default, as a softphone's stream does.
            let call = try await StreamProcess(on: rig.server, .playback, device: "@DEFAULT_SINK@", properties: ["media.role": "phone"])
            defer { call.stop() }
            let music = try await rig.play(on: headset)
            defer { music.stop() }
            try await rig.settle("the call playing on the headset") { try await rig.sinkName(of: call) == headset.name }
            let musicStream = try #require(try await rig.stream(of: music))
            let mediaGuard = MediaGuard(server: rig.managerClient, manager: rig.manager, players: [],
                                        settings: MediaSettings(unmatchedMuteDuration: .milliseconds(500)),
                                        logger: LiveManagerRig.quietLogger)
            try await MediaEventLog.running(mediaGuard) { log in
                try await MuteWatch.watching(call.processID, on: rig.observer) { watch in
                    try await rig.unloadQuickly(headset)
                    let held = try await log.next("the music held", after: 0) { if case .held = $0 { true } else { false } }
                    #expect(held == .held(reason: .outputLost("bt_call"), players: [], streams: [musicStream.index],
                                          unmatchedStreams: [musicStream.index]), "the call's stream is not among them")
                    try await rig.settle("the call on the loudspeaker") { try await rig.sinkName(of: call) == speaker.name }
                    // Held up to its bound: any mute of the call would have shown by then.
                    _ = try await log.next("the music released", after: 0) { $0 == .released(streams: [musicStream.index]) }
                    try await rig.settle("the music unmuted") { try await rig.stream(of: music)?.isMuted == false }
                    #expect(try await rig.stream(of: call)?.isMuted == false)
                    #expect(!watch.states.isEmpty, "the call's move was seen")
                    #expect(!watch.everMuted, "the call was muted at some point: \(watch.states)")
                }
            }
        }
    }

    @Test("the headset playing fails and audio falls back to a second headset: the player ends playing there, never heard on the loudspeaker",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func fallbackToSecondHeadset(kind: SoundServerKind, mirrored: Bool) async throws {
        let first = ConventionDevice.bluetoothHeadset("bt_first", "First Headset")
        let second = ConventionDevice.wiredHeadset("usb_second", "Second Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(second)
            try await rig.plug(first)
            try await rig.start(expecting: first)
            let music = try await StreamProcess(on: rig.server, .playback, device: "@DEFAULT_SINK@")
            defer { music.stop() }
            try await rig.settle("the music playing on the first headset") { try await rig.sinkName(of: music) == first.name }
            let players = InProcessPlayers()
            let commands = CommandLog()
            let name = "org.example.Music"
            players.register(name, identity: name, processID: UInt32(music.processID), status: .playing, commands: .init(
                pause: { await commands.append("pause"); players.update(name, status: .paused) },
                play: { await commands.append("play"); players.update(name, status: .playing) }))
            let mediaGuard = MediaGuard(server: rig.managerClient, manager: rig.manager, players: [players],
                                        logger: LiveManagerRig.quietLogger)
            try await MediaEventLog.running(mediaGuard) { log in
                let states = try await MuteWatch.watching(music.processID, on: rig.observer) { watch in
                    try await rig.unloadQuickly(first)
                    try await rig.expectRoute(on: second, streams: [music], "after the first headset failed")
                    try await rig.settle("the music unmuted on the second headset") { try await rig.stream(of: music)?.isMuted == false }
                    return watch.states
                }
                // The second headset going, to the loudspeaker. The guard may still be catching
                // up with the first removal (its own connection's events come when they come):
                // whatever it learned first, the player ends paused (paused again as the second
                // went, or still paused from the first, its resume dropped) and never resumed
                // onto the loudspeaker; a hold of the music's stream names the player's.
                let musicStream = try #require(try await rig.stream(of: music))
                try await rig.unloadQuickly(second)
                try await rig.expectRoute(on: speaker, "after the second headset went")
                try await commands.wait(until: "the player paused, as often as played and once more") { seen in
                    seen.last == "pause" && seen.count(where: { $0 == "pause" }) == seen.count(where: { $0 == "play" }) + 1
                }
                let before = await log.events
                let heldOnFirst = before.contains { if case .held(.outputLost("bt_first"), _, _, _) = $0 { true } else { false } }
                for case .held(.outputLost("usb_second"), let players, let streams, let unmatched) in before {
                    #expect(streams == [musicStream.index] || (streams.isEmpty && players == [name]), "\(before)")
                    #expect(unmatched.isEmpty, "the stream is the player's: \(before)")
                }
                #expect(mediaGuard.pausedPlayers == [name], "\(before)")
                print("fallback to a second headset on \(kind): held on the first \(heldOnFirst), mute states \(states)")
            }
        }
    }
}
