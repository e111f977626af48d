@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// A headset goes and audio falls back to another private output: nothing can leak, so
/// nothing is paused; when the fallback is known only after the removal, what was held is
/// given back once it is, whatever the order of the server's events.
@Suite("Media machine: falling back to another headset")
struct MediaMachineFallbackTests {
    let start = ContinuousClock.now
    let music = "org.mpris.MediaPlayer2.music"

    /// Music on the Bluetooth headset, the USB headset present too.
    func twoHeadsets() -> MediaMachine {
        Fixture.machine(sinks: [Fixture.headset, Fixture.usbHeadset, Fixture.speaker], streams: [Fixture.stream(10, on: 1)],
                        players: [Fixture.player()], now: start)
    }

    @Test("the default on the other headset before the removal: nothing held, nothing paused")
    func defaultFirst() {
        var machine = twoHeadsets()
        #expect(machine.defaultSinkChanged("usb_headset", now: start).isEmpty)
        #expect(machine.sinkRemoved(1, now: start).isEmpty)
        #expect(machine.streamSeen(Fixture.stream(10, on: 4), now: start).isEmpty)
        #expect(machine.holds.isEmpty && machine.paused.isEmpty)
    }

    @Test("the stream moved to the other headset before the removal (PulseAudio's order): nothing held")
    func movedFirst() {
        var machine = twoHeadsets()
        #expect(machine.streamSeen(Fixture.stream(10, on: 4), now: start).isEmpty)
        #expect(machine.sinkRemoved(1, now: start.advanced(by: .milliseconds(5))).isEmpty)
        #expect(machine.defaultSinkChanged("usb_headset", now: start).isEmpty)
        #expect(machine.paused.isEmpty)
    }

    @Test("the removal first, the fallback not known yet: held, then unmuted when the stream shows on the headset and resumed when the default does")
    func removalFirst() {
        var machine = twoHeadsets()
        let held = machine.sinkRemoved(1, now: start)
        #expect(held.mutes == [10], "where it goes is not known: the loudspeaker stays quiet")
        #expect(held.pauses == [music])
        let landed = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        #expect(landed == [.unmute(10), .emit(.released(streams: [10]))])
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        let resumed = machine.defaultSinkChanged("usb_headset", now: start)
        #expect(resumed.plays == [music])
        #expect(resumed.events == [.resumed(reason: .outputLost("bt_headset"), players: [music])])
        #expect(machine.paused.isEmpty)
    }

    @Test("the default on the other headset before the player's pause is seen: it is played once the pause lands, not before")
    func resumeBeforePauseLands() {
        var machine = twoHeadsets()
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.defaultSinkChanged("usb_headset", now: start).plays.isEmpty, "a Play could overtake the Pause")
        let paused = machine.playerSeen(Fixture.player(.paused), now: start)
        #expect(paused.plays == [music])
        #expect(paused.events.contains(.resumed(reason: .outputLost("bt_headset"), players: [music])))
        #expect(machine.paused.isEmpty)
    }

    @Test("the default was on the other headset, but the stream lands on the loudspeaker: exposed then")
    func landsOnSpeaker() {
        var machine = twoHeadsets()
        _ = machine.defaultSinkChanged("usb_headset", now: start)
        #expect(machine.sinkRemoved(1, now: start).isEmpty)
        let exposed = machine.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(20)))
        #expect(exposed.mutes == [10])
        #expect(exposed.pauses == [music])
    }

    @Test("the second headset goes before the music's landing on it is read: exposed, and held on the loudspeaker")
    func secondGoesBeforeLandingRead() {
        var machine = twoHeadsets()
        _ = machine.defaultSinkChanged("usb_headset", now: start)
        #expect(machine.sinkRemoved(1, now: start).isEmpty, "the default is the other headset: nothing to hide yet")
        // The server moved the music to the USB headset, and the USB headset goes before the
        // guard has read that move: the music may be anywhere now.
        let held = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(5)))
        #expect(held.mutes == [10])
        #expect(held.pauses == [music])
        #expect(held.events.contains(.held(reason: .outputLost("usb_headset"), players: [music], streams: [10], unmatchedStreams: [])))
        // Read on the loudspeaker, where the server put it: still held.
        #expect(machine.streamSeen(Fixture.stream(10, on: 2, muted: true), now: start.advanced(by: .milliseconds(10))).isEmpty)
        #expect(machine.holds[10] != nil)
    }

    @Test("a player just resumed, its new status not seen yet, is paused again when its output goes")
    func resumedThenLostAgain() {
        var machine = twoHeadsets()
        _ = machine.sinkRemoved(1, now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        #expect(machine.defaultSinkChanged("usb_headset", now: start).plays == [music])
        let held = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(5)))
        #expect(held.pauses == [music], "Play was sent: it may be playing")
        #expect(held.events.contains(.held(reason: .outputLost("usb_headset"), players: [music], streams: [10], unmatchedStreams: [])))
    }

    @Test("a reading older than RouteKit's unmute does not make the stream count as silent")
    func staleMutedReadingAfterRelease() {
        var machine = twoHeadsets()
        _ = machine.sinkRemoved(1, now: start)
        let landed = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        #expect(landed.contains(.unmute(10)))
        // The server answered a read sent before the unmute: still muted there.
        #expect(machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start.advanced(by: .milliseconds(5))).isEmpty)
        let held = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(10)))
        #expect(held.mutes == [10], "the stream plays: the loudspeaker must not have it")
    }

    @Test("a stream still shown muted well after RouteKit's unmute is taken as muted by someone")
    func mutedLongAfterRelease() {
        var machine = twoHeadsets()
        _ = machine.sinkRemoved(1, now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start.advanced(by: .seconds(2)))
        #expect(machine.sinkRemoved(4, now: start.advanced(by: .seconds(3))).mutes.isEmpty, "silent already: nothing to mute")
    }

    @Test("the second headset goes while the player is still paused from the first: its stream is held as the player's")
    func secondGoesWhilePausedFromFirst() {
        var machine = twoHeadsets()
        #expect(machine.sinkRemoved(1, now: start).pauses == [music])
        _ = machine.playerSeen(Fixture.player(.paused), now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        // The USB headset goes before the default naming it is seen: no resume yet.
        let held = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(5)))
        #expect(held.mutes == [10])
        #expect(held.pauses.isEmpty, "paused already")
        #expect(held.events.contains(.held(reason: .outputLost("usb_headset"), players: [], streams: [10], unmatchedStreams: [])))
        #expect(machine.paused.keys.contains(music))
    }

    @Test("a stream shown corked on the headset that goes, its player playing, is held; one whose player paused is not")
    func corkedWhilePlaying() {
        var machine = Fixture.machine(sinks: [Fixture.headset, Fixture.usbHeadset, Fixture.speaker],
                                      streams: [Fixture.stream(10, on: 4, corked: true)], defaultSink: "usb_headset",
                                      players: [Fixture.player()], now: start)
        #expect(machine.sinkRemoved(4, now: start).mutes == [10], "PipeWire shows a stream not yet linked as corked")
        var paused = Fixture.machine(sinks: [Fixture.headset, Fixture.usbHeadset, Fixture.speaker],
                                     streams: [Fixture.stream(10, on: 4, corked: true)], defaultSink: "usb_headset",
                                     players: [Fixture.player(.paused)], now: start)
        #expect(paused.sinkRemoved(4, now: start).isEmpty)
    }

    @Test("a stream announced gone with its headset and back corked (PipeWire, not linked yet), its player playing, is held")
    func backCorkedAfterItsSinkWent() {
        var machine = Fixture.machine(sinks: [Fixture.headset, Fixture.usbHeadset, Fixture.speaker],
                                      streams: [Fixture.stream(10, on: 4)], defaultSink: "usb_headset",
                                      players: [Fixture.player()], now: start)
        #expect(machine.streamRemoved(10, now: start).isEmpty)
        _ = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(1)))
        let back = machine.streamSeen(Fixture.stream(10, on: 2, corked: true), now: start.advanced(by: .milliseconds(2)))
        #expect(back.mutes == [10])
        #expect(back.pauses == [music])
    }

    @Test("a resume waiting for the player's pause is dropped when the output it was for goes first")
    func resumeDroppedWhenFallbackGoes() {
        var machine = twoHeadsets()
        #expect(machine.sinkRemoved(1, now: start).pauses == [music])
        _ = machine.streamSeen(Fixture.stream(10, on: 4, muted: true), now: start)
        #expect(machine.defaultSinkChanged("usb_headset", now: start).plays.isEmpty, "the pause has not landed yet")
        _ = machine.sinkRemoved(4, now: start.advanced(by: .milliseconds(5)))
        _ = machine.defaultSinkChanged("speaker", now: start.advanced(by: .milliseconds(6)))
        let landed = machine.playerSeen(Fixture.player(.paused), now: start.advanced(by: .milliseconds(7)))
        #expect(landed.plays.isEmpty, "resumed onto the loudspeaker")
        #expect(machine.paused.keys.contains(music))
        // A private output again: resumed then.
        _ = machine.sinkSeen(Fixture.usbHeadset, now: start.advanced(by: .milliseconds(8)))
        #expect(machine.defaultSinkChanged("usb_headset", now: start.advanced(by: .milliseconds(9))).plays == [music])
    }

    @Test("a stream on its way to a headset is not held when an unrelated public sink goes")
    func publicRemovalLeavesLandingAlone() {
        var machine = twoHeadsets()
        _ = machine.defaultSinkChanged("usb_headset", now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.sinkRemoved(2, now: start.advanced(by: .milliseconds(5))).isEmpty)
        #expect(machine.holds.isEmpty)
    }

    @Test("after the fallback, the second headset going exposes the music as the first one would have")
    func secondHeadsetGoes() {
        var machine = twoHeadsets()
        _ = machine.defaultSinkChanged("usb_headset", now: start)
        _ = machine.sinkRemoved(1, now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: 4), now: start)
        _ = machine.defaultSinkChanged("speaker", now: start)
        let held = machine.sinkRemoved(4, now: start)
        #expect(held.mutes == [10])
        #expect(held.events == [.held(reason: .outputLost("usb_headset"), players: [music], streams: [10], unmatchedStreams: [])])
    }
}
