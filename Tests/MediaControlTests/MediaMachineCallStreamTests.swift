@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// A call's own streams: never muted or paused, on unplug or by a call's hold; they follow
/// the call's route at once.
@Suite("Media machine: a call's own streams")
struct MediaMachineCallStreamTests {
    let start = ContinuousClock.now
    let music = "org.mpris.MediaPlayer2.music"
    let softphonePID: UInt32 = 77

    @Test("a headset fails mid-call: the phone-role stream is not muted, the music beside it is held as before")
    func phoneRoleOnUnplug() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1), Fixture.stream(12, on: 1, pid: softphonePID, role: "phone")],
                                      players: [Fixture.player()], now: start)
        let actions = machine.sinkRemoved(1, now: start)
        #expect(actions.mutes == [10])
        #expect(actions.pauses == [music])
        #expect(actions.events == [.held(reason: .outputLost("bt_headset"), players: [music], streams: [10], unmatchedStreams: [])])
        #expect(machine.holds[12] == nil)
        #expect(machine.streamSeen(Fixture.stream(12, on: 2, pid: softphonePID, role: "phone"), now: start).isEmpty,
                "on the fallback, still left alone")
    }

    @Test("PipeWire's Communication role, a call's process and a configured application are calls' too")
    func otherCallStreams() {
        let streams = [Fixture.stream(12, on: 1, pid: 5, role: "Communication"), Fixture.stream(13, on: 1, pid: softphonePID),
                       Fixture.stream(14, on: 1, pid: 6, application: "linphone")]
        var machine = Fixture.machine(streams: streams, now: start)
        _ = machine.callStreamsChanged(CallStreams(processIDs: [softphonePID], applications: ["linphone"]))
        #expect(machine.sinkRemoved(1, now: start).isEmpty)

        var byDefault = Fixture.machine(streams: streams, now: start)
        #expect(byDefault.sinkRemoved(1, now: start).mutes == [13, 14], "by default only the roles say what a call is")
    }

    @Test("a player whose process makes a call is not paused on unplug")
    func callProcessNotPaused() {
        let softphone = Fixture.player("org.mpris.MediaPlayer2.softphone", pid: softphonePID)
        var machine = Fixture.machine(streams: [Fixture.stream(12, on: 1, pid: softphonePID, role: "phone"),
                                                Fixture.stream(13, on: 1, pid: softphonePID)],
                                      players: [softphone], now: start)
        let actions = machine.sinkRemoved(1, now: start)
        #expect(actions.pauses.isEmpty)
        #expect(actions.mutes == [13], "its other stream is muted for its bound only")
        #expect(actions.events == [.held(reason: .outputLost("bt_headset"), players: [], streams: [13], unmatchedStreams: [13])])
    }

    @Test("a stream held muted whose process the engine then names as a call's is unmuted at once")
    func namedLater() {
        var machine = Fixture.machine(streams: [Fixture.stream(13, on: 1, pid: softphonePID)], now: start)
        #expect(machine.sinkRemoved(1, now: start).mutes == [13])
        let actions = machine.callStreamsChanged(CallStreams(processIDs: [softphonePID]))
        #expect(actions == [.unmute(13), .emit(.released(streams: [13]))])
        #expect(machine.holds.isEmpty)
    }

    @Test("a call's hold leaves the call's streams and players alone, also a call stream started during the call; it ends when call audio does")
    func callHold() {
        let softphone = Fixture.player("org.mpris.MediaPlayer2.softphone", pid: softphonePID)
        var machine = Fixture.machine(sinks: [Fixture.speaker],
                                      streams: [Fixture.stream(10, on: 2), Fixture.stream(12, on: 2, pid: softphonePID, role: "music")],
                                      defaultSink: "speaker", players: [Fixture.player(), softphone], now: start)
        _ = machine.callStreamsChanged(CallStreams(processIDs: [softphonePID]))
        let on = machine.callAudioChanged(true, now: start)
        #expect(on.pauses == [music])
        #expect(on.mutes == [10], "the softphone's stream is the call's, whatever its role")
        #expect(machine.streamSeen(Fixture.stream(15, on: 2, pid: 8, role: "phone"), now: start).isEmpty)
        #expect(machine.holds[15] == nil, "a call's stream started during the call is not held")
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        let off = machine.callAudioChanged(false, now: start)
        #expect(off.unmutes == [10])
        #expect(off.plays == [music])
    }

    @Test("a media stream first seen during the call is held as those there at its start; a stream with no media role of no paused player is left alone")
    func streamSeenDuringCall() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [], defaultSink: "speaker", now: start)
        #expect(machine.callAudioChanged(true, now: start).isEmpty, "nothing plays yet")
        let held = machine.streamSeen(Fixture.stream(20, on: 2, pid: 7, role: "music"), now: start)
        #expect(held.mutes == [20])
        #expect(held.events == [.held(reason: .call, players: [], streams: [20], unmatchedStreams: [])])
        #expect(machine.streamSeen(Fixture.stream(21, on: 2, pid: 9), now: start).isEmpty, "no role, no paused player's")
        #expect(machine.holds[21] == nil)
        let off = machine.callAudioChanged(false, now: start)
        #expect(off.unmutes == [20])
    }

    @Test("the stream of a player paused for the call, first seen during it, is held too")
    func playersStreamSeenDuringCall() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [], defaultSink: "speaker",
                                      players: [Fixture.player()], now: start)
        #expect(machine.callAudioChanged(true, now: start).pauses == [music])
        let seen = machine.streamSeen(Fixture.stream(22, on: 2), now: start)
        #expect(seen.mutes == [22], "no media role, but its player's paused for the call")
        #expect(seen.pauses.isEmpty, "paused already")
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        let off = machine.callAudioChanged(false, now: start)
        #expect(off.unmutes == [22])
        #expect(off.plays == [music])
    }

    @Test("a media stream shown corked when the call began (PipeWire, not linked yet) is held once it plays")
    func corkedAtCallStartHeldOncePlaying() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [Fixture.stream(20, on: 2, pid: 7, role: "music", corked: true)],
                                      defaultSink: "speaker", now: start)
        #expect(machine.callAudioChanged(true, now: start).mutes.isEmpty, "silent when the call began")
        let playing = machine.streamSeen(Fixture.stream(20, on: 2, pid: 7, role: "music"), now: start.advanced(by: .milliseconds(50)))
        #expect(playing.mutes == [20])
        #expect(machine.callAudioChanged(false, now: start.advanced(by: .seconds(1))).unmutes == [20])
    }

    @Test("a media stream first read playing during the call by the reading after a reconnection is held; one held already, or silent, is not held again")
    func streamReadOnReconnectionDuringCall() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [Fixture.stream(20, on: 2, pid: 7, role: "music", corked: true)],
                                      defaultSink: "speaker", now: start)
        #expect(machine.callAudioChanged(true, now: start).mutes.isEmpty, "silent when the call began")
        // The connection comes back after the server restarted: the reading it makes shows the
        // music playing (its player reconnected) and a second media stream, silent.
        let later = start.advanced(by: .milliseconds(50))
        let read = machine.reset(sinks: [Fixture.speaker], streams: [Fixture.stream(20, on: 2, pid: 7, role: "music"),
                                                                     Fixture.stream(21, on: 2, pid: 8, role: "music", corked: true)],
                                 defaultSink: "speaker", now: later)
        #expect(read.mutes == [20])
        #expect(read.events == [.held(reason: .call, players: [], streams: [20], unmatchedStreams: [])])
        #expect(machine.holds[21] == nil, "silent: held once it plays")
        // Read again (another reconnection): the held stream, muted now, is not held twice.
        let again = machine.reset(sinks: [Fixture.speaker], streams: [Fixture.stream(20, on: 2, pid: 7, role: "music", muted: true),
                                                                      Fixture.stream(21, on: 2, pid: 8, role: "music", corked: true)],
                                  defaultSink: "speaker", now: later)
        #expect(again.isEmpty)
        #expect(machine.callAudioChanged(false, now: start.advanced(by: .seconds(1))).unmutes == [20])
    }
}
