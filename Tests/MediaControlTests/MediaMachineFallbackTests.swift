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
