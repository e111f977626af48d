@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// Resuming: exactly the players RouteKit paused, untouched since, once a private output is
/// where audio goes again, within the window; and media held during calls.
@Suite("Media machine: resume and calls")
struct MediaMachineResumeTests {
    let start = ContinuousClock.now
    let music = "org.mpris.MediaPlayer2.music"

    /// Headset removed, player paused (its echo seen) and its stream corked, default on the speaker.
    func pausedOnUnplug() -> MediaMachine {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = machine.sinkRemoved(1, now: start)
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 2, corked: true, muted: true), now: start)
        _ = machine.defaultSinkChanged("speaker", now: start)
        return machine
    }

    @Test("the headset back and the default on it: the player paused is resumed")
    func resumeOnReplug() {
        var machine = pausedOnUnplug()
        let later = start.advanced(by: .seconds(30))
        #expect(machine.sinkSeen(Fixture.headset, now: later).isEmpty, "present, but audio still goes to the speaker")
        let actions = machine.defaultSinkChanged("bt_headset", now: later)
        #expect(actions.plays == [music])
        #expect(actions.events == [.resumed(reason: .outputLost("bt_headset"), players: [music])])
        #expect(machine.defaultSinkChanged("speaker", now: later).isEmpty)
        #expect(machine.defaultSinkChanged("bt_headset", now: later).isEmpty, "resumed once")
    }

    @Test("the player's own word after a resume is announced, though the machine took it as playing at once")
    func playingAnnouncedAfterResume() {
        var machine = pausedOnUnplug()
        _ = machine.sinkSeen(Fixture.headset, now: start)
        #expect(machine.defaultSinkChanged("bt_headset", now: start).plays == [music])
        #expect(machine.players[music]?.status == .playing, "taken as playing until it says otherwise")
        // (`events` leaves out players' own words: read the emits themselves.)
        #expect(machine.playerSeen(Fixture.player(.playing), now: start) == [.emit(.player(Fixture.player(.playing)))])
        #expect(machine.playerSeen(Fixture.player(.playing), now: start).isEmpty, "said once")
    }

    @Test("a jack plugged back: the sink back on its private port resumes")
    func resumeOnJack() {
        var machine = Fixture.machine(sinks: [Fixture.laptopOnHeadphones], streams: [Fixture.stream(10, on: 3)],
                                      defaultSink: "laptop", players: [Fixture.player()], now: start)
        _ = machine.sinkSeen(Fixture.laptopOnHeadphones.on("speaker", ["headphones": .unavailable]), now: start)
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        let back = machine.sinkSeen(Fixture.laptopOnHeadphones.on("headphones", ["headphones": .available]), now: start)
        #expect(back.plays == [music])
    }

    @Test("a player the user played or stopped in between is left alone")
    func touchedPlayer() {
        var played = pausedOnUnplug()
        #expect(played.playerSeen(Fixture.player(.playing), now: start).events == [.forgotten(players: [music])])
        _ = played.playerSeen(Fixture.player(.paused), now: start)
        _ = played.sinkSeen(Fixture.headset, now: start)
        #expect(played.defaultSinkChanged("bt_headset", now: start).isEmpty)

        var stopped = pausedOnUnplug()
        _ = stopped.playerSeen(Fixture.player(.stopped), now: start)
        _ = stopped.sinkSeen(Fixture.headset, now: start)
        #expect(stopped.defaultSinkChanged("bt_headset", now: start).isEmpty)
    }

    @Test("after the resume window the player is forgotten, and stays paused")
    func window() {
        var machine = pausedOnUnplug()
        #expect(machine.tick(now: start.advanced(by: .seconds(179))).isEmpty)
        #expect(machine.tick(now: start.advanced(by: .seconds(180))).events == [.forgotten(players: [music])])
        _ = machine.sinkSeen(Fixture.headset, now: start.advanced(by: .seconds(181)))
        #expect(machine.defaultSinkChanged("bt_headset", now: start.advanced(by: .seconds(181))).isEmpty)
    }

    @Test("a player that went away is not resumed")
    func vanished() {
        var machine = pausedOnUnplug()
        #expect(machine.playerVanished(music).events == [.forgotten(players: [music])])
        _ = machine.sinkSeen(Fixture.headset, now: start)
        #expect(machine.defaultSinkChanged("bt_headset", now: start).isEmpty)
    }

    @Test("call audio pauses playing players and mutes music and video, not the call; ending it gives back exactly those")
    func callHold() {
        let other = Fixture.player("org.mpris.MediaPlayer2.other", pid: 5, .paused)
        var machine = Fixture.machine(sinks: [Fixture.speaker],
                                      streams: [Fixture.stream(10, on: 2), Fixture.stream(11, on: 2, pid: 8, role: "video"),
                                                Fixture.stream(12, on: 2, pid: 9, role: "phone"),
                                                Fixture.stream(13, on: 2, pid: 6, role: "event")],
                                      defaultSink: "speaker", players: [Fixture.player(), other], now: start)
        let on = machine.callAudioChanged(true, now: start)
        #expect(on.pauses == [music], "the player already paused is not the call's to resume")
        #expect(on.mutes == [10, 11])
        #expect(machine.callAudioChanged(true, now: start).isEmpty)
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        let off = machine.callAudioChanged(false, now: start)
        #expect(off.unmutes == [10, 11])
        #expect(off.plays == [music])
        #expect(off.events == [.released(streams: [10, 11]), .resumed(reason: .call, players: [music])])
    }

    @Test("a player the user played during the call is not resumed again; holding off in settings does nothing")
    func callTouched() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [Fixture.stream(10, on: 2)], defaultSink: "speaker",
                                      players: [Fixture.player()], now: start)
        _ = machine.callAudioChanged(true, now: start)
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        _ = machine.playerSeen(Fixture.player(.playing), now: start)
        #expect(machine.callAudioChanged(false, now: start).plays.isEmpty)

        var off = Fixture.machine(settings: MediaSettings(holdsMediaDuringCalls: false), sinks: [Fixture.speaker],
                                  streams: [Fixture.stream(10, on: 2)], defaultSink: "speaker", players: [Fixture.player()], now: start)
        #expect(off.callAudioChanged(true, now: start).isEmpty)
    }

    @Test("a call that ends before the player's pause is seen still resumes it")
    func shortCall() {
        var machine = Fixture.machine(sinks: [Fixture.speaker], streams: [Fixture.stream(10, on: 2)], defaultSink: "speaker",
                                      players: [Fixture.player()], now: start)
        _ = machine.callAudioChanged(true, now: start)
        #expect(machine.callAudioChanged(false, now: start).plays == [music])
    }

    @Test("a player's appearance and each change of its status are news; other changes are not")
    func playerNews() {
        var machine = MediaMachine(settings: MediaSettings())
        #expect(machine.playerSeen(Fixture.player(.stopped), now: start) == [.emit(.player(Fixture.player(.stopped)))])
        #expect(machine.playerSeen(Fixture.player(.playing), now: start) == [.emit(.player(Fixture.player(.playing)))])
        var renamed = Fixture.player(.playing)
        renamed.identity = "Music"
        #expect(machine.playerSeen(renamed, now: start).isEmpty)
    }
}
