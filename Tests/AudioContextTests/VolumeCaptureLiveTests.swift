import AudioContext
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// Volume-button capture on real servers; the "button" is another client, pactl, raising,
/// lowering and muting the default sink as a desktop's volume keys do. Each case runs with
/// capture reading the server itself and beside a manager (as in the daemon), reading the
/// manager's mirror.
///
/// Every press is awaited as the next event: a phantom press (the echo of a restore taken
/// for a press) would come before the next real one and fail the comparison.
@Suite("Volume capture on real servers")
struct VolumeCaptureLiveTests {
    static let step = ChannelVolumes.normal / 20

    @Test("presses with their direction, the volume put back, no phantom press, quick presses each, the default moving",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, Following.allCases)
    func presses(kind: SoundServerKind, following: Following) async throws {
        try await ContextRig.run(kind, sinks: ["ctx_main", "ctx_other"]) { rig in
            try await rig.setLevel("ctx_main", percent: 50)
            try await rig.setLevel("ctx_other", percent: 70)
            let original = try #require(try await rig.level("ctx_main"))
            let otherOriginal = try #require(try await rig.level("ctx_other"))
            try await rig.withManager(following) { manager in
                let capture = rig.capture(following: manager)
                try await capture.withCapture { events in
                    var events = events.makeAsyncIterator()
                    #expect(await events.next() == .capturing(sink: "ctx_main", original: original, held: original))

                    // Each press twice over: the echo of the first one's restore, were it taken for
                    // a press, would be one the other way, before the second.
                    for (key, button) in [("+5%", VolumeButton.up), ("-5%", .down)] {
                        for _ in 0..<2 {
                            try await rig.pactl("set-sink-volume", "@DEFAULT_SINK@", key)
                            #expect(await events.next() == .pressed(button, sink: "ctx_main"))
                            try await rig.waitForLevel("ctx_main", "the held level again") { $0 == original }
                        }
                    }

                    try await rig.pactl("set-sink-mute", "@DEFAULT_SINK@", "toggle")
                    #expect(await events.next() == .pressed(.mute, sink: "ctx_main"))
                    try await rig.waitForLevel("ctx_main", "unmuted again") { $0 == original }

                    // Three quick presses (each pactl runs as soon as the one before exits): no echo
                    // of a restore is taken for a press the other way, and the presses are seen. pactl
                    // reads the volume and writes it plus a step: when the machine is so loaded that
                    // a press reads the level the press before left, before it is put back, that step
                    // is seen twice (Docs/Context.md, "Volume buttons"), so more ups may come, and
                    // nothing else. That each one counts is not asserted here: a press whose write the
                    // server applies just before the restore sent ahead of it (another connection)
                    // is undone before any reading shows it, a race observe-and-restore cannot close
                    // (seen once, two of three). Counting quick presses, read one by one or merged,
                    // is VolumeCaptureMachineTests/quickPresses', on readings given to the machine.
                    for _ in 0..<3 { try await rig.pactl("set-sink-volume", "@DEFAULT_SINK@", "+5%") }
                    try await rig.pactl("set-sink-mute", "@DEFAULT_SINK@", "toggle")
                    var ups = 0
                    while let event = await events.next(), event != .pressed(.mute, sink: "ctx_main") {
                        #expect(event == .pressed(.up, sink: "ctx_main"), "only ups before the mute: no echo")
                        ups += 1
                    }
                    #expect(ups >= 1, "the quick presses seen")
                    try await rig.waitForLevel("ctx_main", "the held level again") { $0 == original }

                    // The default moves: ctx_main gets its level back, ctx_other is held.
                    try await rig.setDefault("ctx_other")
                    #expect(await events.next() == .released(sink: "ctx_main", restored: original))
                    #expect(await events.next() == .capturing(sink: "ctx_other", original: otherOriginal, held: otherOriginal))
                    try await rig.waitForLevel("ctx_main", "the user's level back") { $0 == original }
                    try await rig.pactl("set-sink-volume", "@DEFAULT_SINK@", "-5%")
                    #expect(await events.next() == .pressed(.down, sink: "ctx_other"))
                    try await rig.waitForLevel("ctx_other", "the held level again") { $0 == otherOriginal }
            }
            }
            // Left as the user had them (PipeWire shows a change a moment after it answers).
            try await rig.waitForLevel("ctx_other", "the user's level back") { $0 == otherOriginal }
            try await rig.waitForLevel("ctx_main", "the user's level, still") { $0 == original }
        }
    }

    @Test("at 100 % and at 0 % presses are still seen, and the user's level comes back exactly",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, Following.allCases)
    func edges(kind: SoundServerKind, following: Following) async throws {
        try await ContextRig.run(kind, sinks: ["ctx_main"]) { rig in
            try await rig.withManager(following) { manager in
                let capture = rig.capture(following: manager)
                for (percent, key, button) in [(100, "+5%", VolumeButton.up), (0, "-5%", VolumeButton.down)] {
                    try await rig.setLevel("ctx_main", percent: percent, muted: percent == 0)
                    let original = try #require(try await rig.level("ctx_main"))
                    try await capture.withCapture { events in
                        var events = events.makeAsyncIterator()
                        let first = await events.next()
                        guard case .capturing(_, let seen, let held) = first else {
                            Issue.record("capture did not start at \(percent) %: its first event was \(String(describing: first))")
                            return
                        }
                        #expect(seen == original)
                        let inside = percent == 0 ? Self.step : ChannelVolumes.normal - Self.step
                        #expect(held.volume.values.max() == inside, "one step inside 0 … 100 %")
                        try await rig.waitForLevel("ctx_main", "held one step inside") { ContextRig.near($0.volume, held.volume) }
                        try await rig.pactl("set-sink-volume", "@DEFAULT_SINK@", key)
                        #expect(await events.next() == .pressed(button, sink: "ctx_main"))
                        try await rig.waitForLevel("ctx_main", "held again") { ContextRig.near($0.volume, held.volume) }
                        // Again: the echo of the restore (one the other way) came and went without a press.
                        try await rig.pactl("set-sink-volume", "@DEFAULT_SINK@", key)
                        #expect(await events.next() == .pressed(button, sink: "ctx_main"))
                    }
                    // Exactly the user's level (PipeWire shows a change a moment after it answers).
                    try await rig.waitForLevel("ctx_main", "exactly the user's \(percent) %") { $0 == original }
            }
            }
        }
    }
}
