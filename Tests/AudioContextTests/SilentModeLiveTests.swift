import AudioContext
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// Silent mode on real servers, the user acting through pactl: mute, volume 0, and the
/// default moving to another sink; each change once, nothing for changes that do not matter.
/// Both ways of following: reading the server itself, and beside a running manager, from its
/// mirror of the server.
@Suite("Silent mode on real servers")
struct SilentModeLiveTests {
    @Test("follows mute, volume 0 and the default's moves; only real changes", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases, Following.allCases)
    func follows(kind: SoundServerKind, following: Following) async throws {
        try await ContextRig.run(kind, sinks: ["ctx_a", "ctx_b"]) { rig in
            try await rig.setLevel("ctx_a", percent: 50)
            try await rig.setLevel("ctx_b", percent: 50)
            try await rig.withManager(following) { manager in
                try await Self.check(rig.silentMode(following: manager), rig)
            }
        }
    }

    /// The user's changes through pactl, and what `monitor` says of each.
    static func check(_ monitor: SilentModeMonitor, _ rig: ContextRig) async throws {
        #expect(try await monitor.current() == .audible(sink: "ctx_a"))
        var changes = monitor.changes().makeAsyncIterator()
        #expect(await changes.next() == .audible(sink: "ctx_a"), "the state when iteration starts")

        // A change that leaves it audible gives nothing: the next element is the mute.
        try await rig.pactl("set-sink-volume", "ctx_a", "40%")
        try await rig.pactl("set-sink-mute", "ctx_a", "1")
        #expect(await changes.next() == .silent(sink: "ctx_a", reasons: .muted))
        try await rig.pactl("set-sink-volume", "ctx_a", "0")
        #expect(await changes.next() == .silent(sink: "ctx_a", reasons: [.muted, .zeroVolume]))
        try await rig.pactl("set-sink-mute", "ctx_a", "0")
        #expect(await changes.next() == .silent(sink: "ctx_a", reasons: .zeroVolume))

        // The default moves: the state follows it; the old sink no longer counts.
        try await rig.setDefault("ctx_b")
        #expect(await changes.next() == .audible(sink: "ctx_b"))
        try await rig.pactl("set-sink-volume", "ctx_a", "30%")
        try await rig.pactl("set-sink-mute", "ctx_a", "1")
        try await rig.pactl("set-sink-mute", "ctx_b", "1")
        #expect(await changes.next() == .silent(sink: "ctx_b", reasons: .muted))
        try await rig.setDefault("ctx_a")
        #expect(await changes.next() == .silent(sink: "ctx_a", reasons: .muted))
        try await rig.pactl("set-sink-mute", "ctx_a", "0")
        #expect(await changes.next() == .audible(sink: "ctx_a"))
        #expect(try await monitor.current() == .audible(sink: "ctx_a"))
    }
}
