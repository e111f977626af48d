@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// Pausing on unplug, as decisions: what goes public is muted and its player paused; what
/// someone chose is left alone; what RouteKit muted is unmuted when it is safe.
@Suite("Media machine: pause on unplug")
struct MediaMachineUnplugTests {
    let start = ContinuousClock.now

    @Test("a private sink removed: its stream is muted and its player paused, at once and once")
    func sinkRemoved() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1), Fixture.stream(11, on: 2, pid: 7)],
                                      players: [Fixture.player()], now: start)
        let actions = machine.sinkRemoved(1, now: start)
        #expect(actions.mutes == [10])
        #expect(actions.pauses == ["org.mpris.MediaPlayer2.music"])
        #expect(actions.events == [.held(reason: .outputLost("bt_headset"), players: ["org.mpris.MediaPlayer2.music"],
                                         streams: [10], unmatchedStreams: [])])
        // The stream on the speaker, of another process, is left alone; the server moving
        // the first one afterwards changes nothing more.
        #expect(machine.streamSeen(Fixture.stream(10, on: 2), now: start).isEmpty)
        #expect(machine.sinkRemoved(1, now: start).isEmpty)
    }

    @Test("the server moved the stream before it said the sink went: still exposed")
    func movedThenRemoved() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        #expect(machine.streamSeen(Fixture.stream(10, on: 2), now: start).isEmpty, "a move alone exposes nothing")
        let actions = machine.sinkRemoved(1, now: start.advanced(by: .milliseconds(5)))
        #expect(actions.mutes == [10])
        #expect(actions.pauses == ["org.mpris.MediaPlayer2.music"])
    }

    @Test("a stream someone moved to the speaker, its headset still there, is left playing")
    func chosenMove() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        #expect(machine.streamSeen(Fixture.stream(10, on: 2), now: start).isEmpty)
        // The headset goes long after: the stream left it on purpose.
        #expect(machine.sinkRemoved(1, now: start.advanced(by: .seconds(5))).isEmpty)
    }

    @Test("a public sink removed, a corked or muted stream, or pausing switched off: nothing held")
    func nothingToHold() {
        var onSpeaker = Fixture.machine(streams: [Fixture.stream(10, on: 2)], players: [Fixture.player()], now: start)
        #expect(onSpeaker.sinkRemoved(2, now: start).isEmpty)
        var corked = Fixture.machine(streams: [Fixture.stream(10, on: 1, corked: true)], players: [Fixture.player(.paused)], now: start)
        #expect(corked.sinkRemoved(1, now: start).isEmpty)
        var off = Fixture.machine(settings: MediaSettings(pausesOnUnplug: false), streams: [Fixture.stream(10, on: 1)],
                                  players: [Fixture.player()], now: start)
        #expect(off.sinkRemoved(1, now: start).isEmpty)
        var userMuted = Fixture.machine(streams: [Fixture.stream(10, on: 1, muted: true)], players: [Fixture.player()], now: start)
        let actions = userMuted.sinkRemoved(1, now: start)
        #expect(actions.mutes.isEmpty && actions.unmutes.isEmpty, "a stream the user muted stays theirs")
        #expect(actions.pauses == ["org.mpris.MediaPlayer2.music"])
    }

    @Test("wired headsets count as private only when settings say so")
    func privateKinds() {
        var machine = Fixture.machine(settings: MediaSettings(privateKinds: [.bluetooth]), sinks: [Fixture.laptopOnHeadphones],
                                      streams: [Fixture.stream(10, on: 3)], defaultSink: "laptop", players: [Fixture.player()], now: start)
        let pulled = Fixture.laptopOnHeadphones.on("speaker", ["headphones": .unavailable])
        #expect(machine.sinkSeen(pulled, now: start).isEmpty)
    }

    @Test("a jack pulled: the sink switched off an unavailable private port is exposed; a port chosen is not")
    func jackPulled() {
        var machine = Fixture.machine(sinks: [Fixture.laptopOnHeadphones], streams: [Fixture.stream(10, on: 3)],
                                      defaultSink: "laptop", players: [Fixture.player()], now: start)
        let pulled = Fixture.laptopOnHeadphones.on("speaker", ["headphones": .unavailable])
        let actions = machine.sinkSeen(pulled, now: start)
        #expect(actions.mutes == [10])
        #expect(actions.events.first == .held(reason: .outputLost("laptop"), players: ["org.mpris.MediaPlayer2.music"],
                                              streams: [10], unmatchedStreams: []))

        var chosen = Fixture.machine(sinks: [Fixture.laptopOnHeadphones], streams: [Fixture.stream(10, on: 3)],
                                     defaultSink: "laptop", players: [Fixture.player()], now: start)
        #expect(chosen.sinkSeen(Fixture.laptopOnHeadphones.on("speaker", [:]), now: start).isEmpty,
                "the headphones still plugged: someone chose the speaker")
    }

    @Test("the stream is unmuted once its player has paused and it corked, and no sooner")
    func unmuteOnCork() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start).isEmpty)
        // PipeWire shows a stream whose sink went as corked until it is linked again: still playing.
        #expect(machine.streamSeen(Fixture.stream(10, on: 2, corked: true, muted: true), now: start).isEmpty)
        let paused = machine.playerSeen(Fixture.player(.paused), now: start)
        #expect(paused.unmutes == [10])
        #expect(paused.events == [.released(streams: [10])])
        #expect(machine.deadline == start.advanced(by: .seconds(180)), "only the resume window is left")

        var other = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = other.sinkRemoved(1, now: start)
        _ = other.playerSeen(Fixture.player(.paused), now: start)
        #expect(other.streamSeen(Fixture.stream(10, on: 2, corked: true, muted: true), now: start).unmutes == [10],
                "the player paused first, then the stream corked")
    }

    @Test("a player that pauses without corking: unmuted after the grace; a stream with no player: after its bound")
    func unmuteByTime() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1), Fixture.stream(11, on: 1, pid: 99)],
                                      players: [Fixture.player()], now: start)
        let held = machine.sinkRemoved(1, now: start)
        #expect(held.events == [.held(reason: .outputLost("bt_headset"), players: ["org.mpris.MediaPlayer2.music"],
                                      streams: [10, 11], unmatchedStreams: [11])])
        let paused = start.advanced(by: .milliseconds(30))
        #expect(machine.playerSeen(Fixture.player(.paused), now: paused).decisions.isEmpty)
        #expect(machine.deadline == paused.advanced(by: .milliseconds(500)))
        #expect(machine.tick(now: paused.advanced(by: .milliseconds(499))).isEmpty)
        #expect(machine.tick(now: paused.advanced(by: .milliseconds(500))).unmutes == [10])
        #expect(machine.tick(now: start.advanced(by: .milliseconds(1_999))).isEmpty)
        #expect(machine.tick(now: start.advanced(by: .seconds(2))).unmutes == [11])
    }

    @Test("a reading older than the mute is not someone unmuting; an unmute under the hold is muted again, a few times, then let be")
    func staleReading() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: false), now: start).isEmpty)
        #expect(machine.holds[10] != nil, "still held: the reading predates the mute")
        // WirePlumber restores a remembered mute when it links the stream to the loudspeaker.
        for _ in 0..<MediaMachine.maximumRemutes {
            _ = machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start)
            #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: false), now: start) == [.mute(10)])
        }
        _ = machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start)
        let unmuted = machine.streamSeen(Fixture.stream(10, on: 2, muted: false), now: start)
        #expect(unmuted == [.emit(.released(streams: [10]))], "a client that keeps unmuting it gets it back")
        #expect(machine.stopping().isEmpty)
    }

    @Test("stopping unmutes everything held, and only that")
    func stopping() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1), Fixture.stream(11, on: 2)], players: [Fixture.player()], now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.stopping().unmutes == [10])
    }

    @Test("a held stream announced as gone and back under its index stays held; gone for good, it is let go after a moment")
    func removedAndBack() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.streamRemoved(10, now: start).isEmpty)
        #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start).isEmpty)
        #expect(machine.holds[10] != nil)
        _ = machine.streamRemoved(10, now: start)
        #expect(machine.tick(now: start.advanced(by: .seconds(2))).unmutes == [10], "asked anyway: harmless if it is gone")
        #expect(machine.stopping().isEmpty)
    }

    @Test("a stream announced gone and back under its index as its headset goes is still exposed, in either order")
    func goneAndBack() {
        // Gone, then the sink, then back.
        var first = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        #expect(first.streamRemoved(10, now: start).isEmpty)
        #expect(first.sinkRemoved(1, now: start).isEmpty, "nothing to mute yet")
        let back = first.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(20)))
        #expect(back.mutes == [10])
        #expect(back.pauses == ["org.mpris.MediaPlayer2.music"])

        // Gone, back, then the sink.
        var second = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = second.streamRemoved(10, now: start)
        #expect(second.streamSeen(Fixture.stream(10, on: 2), now: start).isEmpty)
        #expect(second.sinkRemoved(1, now: start.advanced(by: .milliseconds(20))).mutes == [10])

        // A stream that simply ended is not exposed when a new one takes its index much later.
        var ended = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        _ = ended.streamRemoved(10, now: start)
        _ = ended.sinkRemoved(1, now: start)
        #expect(ended.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .seconds(5))).isEmpty)
    }

    @Test("a reading that shows a stream linked to no sink, and corked, keeps where it plays: its sink going seconds later still exposes it, matched or not",
          arguments: [true, false])
    func unlinkedReading(hasPlayer: Bool) {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: hasPlayer ? [Fixture.player()] : [], now: start)
        // As pipewire-pulse answers on a connection just renewed, before its copy of the graph
        // has linked the stream: no sink, corked, though the stream plays on the headset.
        let unlinked = Fixture.stream(10, on: SinkInputInfo.unlinkedSink, corked: true)
        #expect(!unlinked.isLinked)
        #expect(machine.streamSeen(unlinked, now: start).isEmpty)
        #expect(machine.streams[10]?.sink == 1 && machine.streams[10]?.isCorked == false)
        let actions = machine.sinkRemoved(1, now: start.advanced(by: .seconds(3)))
        #expect(actions.mutes == [10])
        #expect(actions.pauses == (hasPlayer ? ["org.mpris.MediaPlayer2.music"] : []))
    }

    @Test("a stream moved off a sink that goes shows unlinked, then on the speaker: exposed once, in either order of the removal")
    func unlinkedWhileMoved() {
        for removalFirst in [true, false] {
            var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
            var actions: [MediaAction] = []
            if removalFirst { actions += machine.sinkRemoved(1, now: start) }
            actions += machine.streamSeen(Fixture.stream(10, on: SinkInputInfo.unlinkedSink, corked: true), now: start)
            if !removalFirst { actions += machine.sinkRemoved(1, now: start.advanced(by: .milliseconds(5))) }
            actions += machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start.advanced(by: .milliseconds(10)))
            #expect(actions.mutes == [10], "removal first: \(removalFirst)")
            #expect(actions.pauses == ["org.mpris.MediaPlayer2.music"], "removal first: \(removalFirst)")
        }
    }

    @Test("a stream shown corked as PipeWire moves it off a headset that goes, and playing a moment later: exposed once, with no player, in either order")
    func corkedWhileMoved() {
        for removalFirst in [true, false] {
            var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], now: start)
            var actions: [MediaAction] = []
            // Seen on the headset, corked (PipeWire corks a stream it relinks), then the removal;
            // or moved to the speaker corked, then the removal.
            if removalFirst {
                actions += machine.streamSeen(Fixture.stream(10, on: 1, corked: true), now: start)
                actions += machine.sinkRemoved(1, now: start.advanced(by: .milliseconds(5)))
            } else {
                actions += machine.streamSeen(Fixture.stream(10, on: 2, corked: true), now: start)
                actions += machine.sinkRemoved(1, now: start.advanced(by: .milliseconds(5)))
            }
            #expect(actions.isEmpty, "corked, nothing to hear yet (removal first: \(removalFirst))")
            // Still corked on the speaker: nothing yet; then playing there.
            actions += machine.streamSeen(Fixture.stream(10, on: 2, corked: true), now: start.advanced(by: .milliseconds(10)))
            #expect(actions.isEmpty)
            actions += machine.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(40)))
            #expect(actions.mutes == [10], "removal first: \(removalFirst)")
            // Exposed once: a later reading asks for nothing more.
            #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start.advanced(by: .milliseconds(60))).isEmpty)
        }
    }

    @Test("a corked stream whose player says it paused, or that plays again only seconds later or on another private output, is left alone")
    func corkedAndPausedStaysAlone() {
        // Its player paused it before the headset went: the cork is the player's.
        var paused = Fixture.machine(streams: [Fixture.stream(10, on: 1, corked: true)], players: [Fixture.player(.paused)], now: start)
        #expect(paused.sinkRemoved(1, now: start).isEmpty)
        #expect(paused.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(40))).isEmpty)
        // No player, played again on the speaker two seconds later: someone started it there.
        var late = Fixture.machine(streams: [Fixture.stream(10, on: 1, corked: true)], now: start)
        #expect(late.sinkRemoved(1, now: start).isEmpty)
        #expect(late.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .seconds(2))).isEmpty)
        // No player, landed on another private output: nothing leaks there.
        var other = Fixture.machine(sinks: [Fixture.headset, Fixture.speaker, Fixture.usbHeadset],
                                    streams: [Fixture.stream(10, on: 1, corked: true)], now: start)
        #expect(other.sinkRemoved(1, now: start).isEmpty)
        #expect(other.streamSeen(Fixture.stream(10, on: 4), now: start.advanced(by: .milliseconds(40))).isEmpty)
    }
}
