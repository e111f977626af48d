@testable import AudioContext
import PulseAudio
import RouteKit
import Testing

/// Which of a manager's mirrors volume capture hands to its machine: each change of the
/// default sink once, and nothing older than the reading that followed its last request.
@Suite("Volume capture: the manager's mirrors it takes")
struct MirrorReadingFilterTests {
    static let held = ChannelVolumes(channelCount: 2, percent: 50)
    static let raised = ChannelVolumes(channelCount: 2, percent: 55)

    static func mirror(_ revision: UInt64, volume: ChannelVolumes, muted: Bool = false, connected: Bool = true) -> ServerMirror {
        let sink = SinkInfo(index: 1, name: "speaker", description: "Speaker", driver: "test", ownerModule: nil, card: nil,
                            isMuted: muted, volume: volume, baseVolume: ChannelVolumes.normal, monitorSourceName: nil,
                            state: .running, ports: [], activePortName: nil, properties: [:])
        return ServerMirror(isConnected: connected, sinks: [1: sink], defaultSinkName: "speaker", revision: revision)
    }

    static func reading(_ volume: ChannelVolumes, muted: Bool = false) -> DefaultSinkReading {
        DefaultSinkReading(sink: "speaker", level: SinkLevel(volume: volume, isMuted: muted))
    }

    @Test("a mirror read before the restore landed, handed on after the reading that followed it, is not taken")
    func olderThanTheReadingAgain() {
        var filter = MirrorReadingFilter()
        #expect(filter.start(with: Self.mirror(3, volume: Self.held)) == Self.reading(Self.held))
        #expect(filter.take(Self.mirror(4, volume: Self.raised)) == .some(Self.reading(Self.raised)), "a press")
        // The restore answered; the manager read the sink again as revision 6. Revision 5, a
        // lookup asked before the restore landed, arrives after it.
        #expect(filter.readAgain(Self.mirror(6, volume: Self.held)) == .some(Self.reading(Self.held)))
        #expect(filter.take(Self.mirror(5, volume: Self.raised)) == nil, "older than the reading again: not a second press")
        #expect(filter.take(Self.mirror(7, volume: Self.raised)) == .some(Self.reading(Self.raised)), "a later press")
    }

    @Test("the same reading is handed on once; a reading again hands it on even so; a lost connection forgets it")
    func onceEach() {
        var filter = MirrorReadingFilter()
        _ = filter.start(with: Self.mirror(1, volume: Self.held))
        #expect(filter.take(Self.mirror(2, volume: Self.held)) == nil, "another device's change: nothing new here")
        #expect(filter.take(Self.mirror(3, volume: Self.raised)) == .some(Self.reading(Self.raised)))
        // The machine took its restore as applied: the level of the last press, read again, is a new press.
        #expect(filter.readAgain(Self.mirror(4, volume: Self.raised)) == .some(Self.reading(Self.raised)))
        #expect(filter.take(Self.mirror(5, volume: Self.raised, connected: false)) == nil)
        #expect(filter.take(Self.mirror(6, volume: Self.raised)) == .some(Self.reading(Self.raised)), "back: looked at afresh")
    }

    @Test("not connected at start: capture waits for a sink and takes the first connected mirror; no default sink is a reading")
    func startDisconnected() {
        var filter = MirrorReadingFilter()
        #expect(filter.start(with: Self.mirror(2, volume: Self.held, connected: false)) == nil)
        #expect(filter.take(Self.mirror(1, volume: Self.held)) == nil, "older than the start")
        #expect(filter.take(Self.mirror(3, volume: Self.held)) == .some(Self.reading(Self.held)))
        var none = Self.mirror(4, volume: Self.held)
        none.defaultSinkName = nil
        #expect(filter.take(none) == .some(nil), "no default sink")
    }
}
