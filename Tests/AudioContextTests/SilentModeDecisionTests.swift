import AudioContext
import PulseAudio
import Testing

/// The decision alone: a default sink's mute and volume in, silent mode out.
@Suite("Silent mode: the decision")
struct SilentModeDecisionTests {
    static func sink(_ name: String, muted: Bool = false, volume: [UInt32] = [ChannelVolumes.normal, ChannelVolumes.normal]) -> SinkInfo {
        SinkInfo(index: 1, name: name, description: name, driver: "test", ownerModule: nil, card: nil, isMuted: muted,
                 volume: ChannelVolumes(volume), baseVolume: ChannelVolumes.normal, monitorSourceName: nil, state: .idle,
                 ports: [], activePortName: nil, properties: [:])
    }

    @Test("an unmuted default sink with sound on a channel is audible")
    func audible() {
        #expect(SilentMode(defaultSinkName: "a", sinks: [Self.sink("a")]) == .audible(sink: "a"))
        #expect(SilentMode(defaultSinkName: "a", sinks: [Self.sink("a", volume: [0, 1])]) == .audible(sink: "a"))
        #expect(SilentMode(defaultSinkName: "a", sinks: [Self.sink("a")]).isSilent == false)
    }

    @Test("muted, volume 0 on every channel, or both, with the reason")
    func silent() {
        #expect(SilentMode(defaultSinkName: "a", sinks: [Self.sink("a", muted: true)]) == .silent(sink: "a", reasons: .muted))
        #expect(SilentMode(defaultSinkName: "a", sinks: [Self.sink("a", volume: [0, 0])]) == .silent(sink: "a", reasons: .zeroVolume))
        let both = SilentMode(defaultSinkName: "a", sinks: [Self.sink("a", muted: true, volume: [0, 0])])
        #expect(both == .silent(sink: "a", reasons: [.muted, .zeroVolume]))
        #expect(both.isSilent == true)
        #expect(both.description == "silent on a (muted, volume 0)")
    }

    @Test("only the default sink counts: another muted sink is not silent mode")
    func onlyTheDefault() {
        let sinks = [Self.sink("a", muted: true), Self.sink("b")]
        #expect(SilentMode(defaultSinkName: "b", sinks: sinks) == .audible(sink: "b"))
    }

    @Test("no default sink, or one not listed (PipeWire's @DEFAULT_SINK@): unknown")
    func unknown() {
        #expect(SilentMode(defaultSinkName: nil, sinks: [Self.sink("a")]) == .unknown)
        #expect(SilentMode(defaultSinkName: "@DEFAULT_SINK@", sinks: [Self.sink("a")]) == .unknown)
        #expect(SilentMode.unknown.isSilent == nil)
    }
}
