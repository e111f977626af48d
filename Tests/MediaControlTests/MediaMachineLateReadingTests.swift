@testable import MediaControl
import PulseAudio
import RouteKit
import Testing

/// A sink's removal is passed on without a reading, so it can overtake the reading of a stream
/// announced just before it (a stream that had just started, or just been linked). Such a
/// reading shows the stream on a sink already gone: the server answered it before the removal,
/// and it is decided as if it had come in its place.
@Suite("Media machine: a stream's reading that comes after its sink's removal")
struct MediaMachineLateReadingTests {
    let start = ContinuousClock.now

    @Test("a stream the machine did not know yet, read on the headset that went: muted and its player paused")
    func unknownStreamExposed() {
        var machine = Fixture.machine(streams: [], players: [Fixture.player()], now: start)
        #expect(machine.sinkRemoved(1, now: start).isEmpty, "nothing was known to play there")
        let actions = machine.streamSeen(Fixture.stream(10, on: 1), now: start.advanced(by: .milliseconds(3)))
        #expect(actions.mutes == [10])
        #expect(actions.pauses == ["org.mpris.MediaPlayer2.music"])
        #expect(actions.events == [.held(reason: .outputLost("bt_headset"), players: ["org.mpris.MediaPlayer2.music"],
                                         streams: [10], unmatchedStreams: [])])
        // The server's move to the speaker that follows adds nothing, and the hold stands.
        #expect(machine.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(5))).isEmpty)
        #expect(machine.holds[10] != nil)
    }

    @Test("a stream known only unlinked when the headset went, read linked to it after: exposed")
    func unlinkedThenLinkedLate() {
        var machine = Fixture.machine(streams: [], now: start)
        _ = machine.streamSeen(Fixture.stream(10, on: SinkInputInfo.unlinkedSink, corked: true), now: start)
        #expect(machine.sinkRemoved(1, now: start).isEmpty)
        let actions = machine.streamSeen(Fixture.stream(10, on: 1), now: start.advanced(by: .milliseconds(2)))
        #expect(actions.mutes == [10])
        #expect(actions.events.first == .held(reason: .outputLost("bt_headset"), players: [], streams: [10], unmatchedStreams: [10]))
    }

    @Test("a late reading of a stream held at the removal already: muted once, not twice")
    func knownStreamNotExposedTwice() {
        var machine = Fixture.machine(streams: [Fixture.stream(10, on: 1)], players: [Fixture.player()], now: start)
        #expect(machine.sinkRemoved(1, now: start).mutes == [10])
        let late = machine.streamSeen(Fixture.stream(10, on: 1), now: start.advanced(by: .milliseconds(1)))
        #expect(late.mutes.isEmpty && late.pauses.isEmpty && late.events.isEmpty)
    }

    @Test("late readings that expose nothing: a corked stream, a public sink, a reading past the window, a call")
    func nothingExposed() {
        var corked = Fixture.machine(streams: [], players: [Fixture.player(.paused)], now: start)
        _ = corked.sinkRemoved(1, now: start)
        #expect(corked.streamSeen(Fixture.stream(10, on: 1, corked: true), now: start).isEmpty)

        var speaker = Fixture.machine(streams: [], defaultSink: "speaker", now: start)
        _ = speaker.sinkRemoved(2, now: start)
        #expect(speaker.streamSeen(Fixture.stream(10, on: 2), now: start).isEmpty, "the speaker is no private output")

        var old = Fixture.machine(streams: [], now: start)
        _ = old.sinkRemoved(1, now: start)
        #expect(old.streamSeen(Fixture.stream(10, on: 1), now: start.advanced(by: .seconds(2))).isEmpty)

        var call = Fixture.machine(streams: [], now: start)
        _ = call.callStreamsChanged(CallStreams(processIDs: [Fixture.musicPID]))
        _ = call.sinkRemoved(1, now: start)
        #expect(call.streamSeen(Fixture.stream(10, on: 1), now: start).mutes.isEmpty, "a call's stream follows the call")
    }

    @Test("a late reading while another private output is the default: left playing, exposed if it lands in public")
    func landsPrivately() {
        var machine = Fixture.machine(sinks: [Fixture.headset, Fixture.speaker, Fixture.usbHeadset], streams: [],
                                      defaultSink: "usb_headset", now: start)
        _ = machine.sinkRemoved(1, now: start)
        #expect(machine.streamSeen(Fixture.stream(10, on: 1), now: start).isEmpty, "the USB headset takes it")
        let landed = machine.streamSeen(Fixture.stream(10, on: 2), now: start.advanced(by: .milliseconds(4)))
        #expect(landed.mutes == [10], "it landed on the speaker instead")
    }
}
