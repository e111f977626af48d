import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// Which device a preference picks when several could do, on real servers: two Bluetooth
/// headsets (RoutePolicy: available before unknown, then the most recently connected, then
/// the id), exact device preferences, and the devices a kind never picks (HDMI-like and
/// virtual), however high the server ranks them.
@Suite("AudioDeviceManager on real servers: choosing among devices")
struct ManagerChoiceTests {
    static let alpha = ConventionDevice.bluetoothHeadset("bt_alpha", "Headset Alpha")
    static let bravo = ConventionDevice.bluetoothHeadset("bt_bravo", "Headset Bravo")

    /// Two headsets, plugged in one order or the other.
    struct PlugOrder: Sendable, CustomTestStringConvertible {
        let first: ConventionDevice
        let second: ConventionDevice
        var testDescription: String { "\(first) then \(second)" }
    }

    static let orders = [PlugOrder(first: alpha, second: bravo), PlugOrder(first: bravo, second: alpha)]

    @Test("two headsets of one kind: the one connected last wins, in either id order; when it goes, the other",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, orders)
    func newestHeadsetWins(kind: SoundServerKind, order: PlugOrder) async throws {
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            let stream = try await rig.play(on: speaker)
            defer { stream.stop() }
            try await rig.start(expecting: speaker, streams: [stream])

            var mark = await rig.recorder.count
            try await rig.plug(order.first)
            #expect(try await rig.recorder.waitForRoute(to: order.first.id, after: mark).reason == .deviceAppeared)
            try await rig.expectRoute(on: order.first, streams: [stream], "with one headset")

            // The second headset is the one just switched on: it wins over the first.
            mark = await rig.recorder.count
            try await rig.plug(order.second)
            let toSecond = try await rig.recorder.waitForRoute(to: order.second.id, after: mark)
            #expect(toSecond.reason == .deviceAppeared)
            #expect(toSecond.from?.id == order.first.id)
            try await rig.expectRoute(on: order.second, streams: [stream], "with both headsets")

            // It goes: the first headset (still a Bluetooth headset) rather than the speaker.
            mark = await rig.recorder.count
            try await rig.unplug(order.second)
            #expect(try await rig.recorder.waitForRoute(to: order.first.id, after: mark).reason == .deviceFailed)
            try await rig.expectRoute(on: order.first, streams: [stream], "after the second headset went")

            // Back again: connected last again, so it wins again.
            mark = await rig.recorder.count
            try await rig.plug(order.second)
            #expect(try await rig.recorder.waitForRoute(to: order.second.id, after: mark).reason == .deviceAppeared)
            try await rig.expectRoute(on: order.second, streams: [stream], "after the second headset came back")
        }
    }

    @Test("two headsets present at start, neither in use: the one connected last wins", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases, orders)
    func newestHeadsetWinsAtStart(kind: SoundServerKind, order: PlugOrder) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            let speaker = ConventionDevice.speakerphone()
            try await rig.plug(speaker)
            try await rig.plug(order.first)
            try await rig.plug(order.second)
            try await rig.observer.setDefaultSink(speaker.name)
            try await rig.expectServerDefault(speaker, "as configured")
            try await rig.start(expecting: order.second)
        }
    }

    @Test("a kind preference the default already satisfies changes nothing at start", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func satisfiedPreferenceKeepsTheDefault(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone("speaker", "Speaker")
        let other = ConventionDevice.speakerphone("other", "Other Speaker")
        try await LiveManagerRig.run(kind, preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            try await rig.plug(other)
            try await rig.observer.setDefaultSink(speaker.name)
            try await rig.expectServerDefault(speaker, "as configured")
            try await rig.start(expecting: speaker)
            try await rig.expectNoRouteChange(after: await rig.recorder.count, "nothing else to do")
            #expect(try await rig.defaultSink() == speaker.name, "the default in use stays")
        }
    }

    @Test("an exact preference picks its headset whatever the order, and a kind entry takes over when it goes",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, orders)
    func exactPreference(kind: SoundServerKind, order: PlugOrder) async throws {
        let speaker = ConventionDevice.speakerphone()
        let chosen = Self.bravo, other = Self.alpha
        try await LiveManagerRig.run(kind, preferences: [.device(chosen.id), .kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            try await rig.start(expecting: speaker)

            var mark = await rig.recorder.count
            try await rig.plug(order.first)
            try await rig.recorder.waitForRoute(to: order.first.id, after: mark)
            try await rig.expectRoute(on: order.first, "with \(order.first)")

            mark = await rig.recorder.count
            try await rig.plug(order.second)
            if order.second.id == chosen.id {
                #expect(try await rig.recorder.waitForRoute(to: chosen.id, after: mark).reason == .deviceAppeared)
            } else {
                // The newer headset does not take over from the one named exactly.
                try await rig.waitForManagerDevices(after: mark, containing: order.second.id)
                try await rig.expectNoRouteChange(after: mark, "a newer headset beside the named one")
            }
            try await rig.expectRoute(on: chosen, "with both headsets")

            mark = await rig.recorder.count
            try await rig.unplug(chosen)
            #expect(try await rig.recorder.waitForRoute(to: other.id, after: mark).reason == .deviceFailed)
            try await rig.expectRoute(on: other, "after the named headset went")
        }
    }

    @Test("HDMI-like and virtual devices are never chosen by kind, however the server ranks them, and are chosen by name",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func externalAndVirtualOnlyByName(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone()
        let hdmi = ConventionDevice.hdmi()
        let virtual = ConventionDevice.virtual(highPriority: true)
        // Kind entries for external and virtual are accepted by the type but match nothing.
        let byKind: [AudioPreference] = [.kind(.external), .kind(.virtual), .kind(.bluetooth), .kind(.speakerphone)]
        try await LiveManagerRig.run(kind, preferences: byKind) { rig in
            try await rig.plug(speaker)
            try await rig.plug(hdmi)
            // Control: the server itself prefers the HDMI-like sink to the speaker.
            try await rig.expectServerDefault(hdmi, "with the speaker and the HDMI-like sink")
            try await rig.plug(virtual)
            // WirePlumber chooses again when a sink appears, and shows no default meanwhile:
            // the server's pick is awaited, not read at once.
            try await rig.settle("the server's pick, HDMI-like or virtual (it ranks both above the speaker)") {
                let pick = try await rig.defaultSink()
                return pick == hdmi.name || pick == virtual.name
            }
            let stream = try await rig.play(on: speaker)
            defer { stream.stop() }

            try await rig.start(expecting: speaker, streams: [stream])
            let kinds = Dictionary(try await rig.manager.audioDevices.map { ($0.id, $0.kind) }) { first, _ in first }
            #expect(kinds[hdmi.id] == .external)
            #expect(kinds[virtual.id] == .virtual)
            #expect(kinds[speaker.id] == .speakerphone)

            // Named exactly, each is chosen.
            var mark = await rig.recorder.count
            await rig.manager.setPreferences([.device(hdmi.id), .kind(.speakerphone)])
            #expect(try await rig.recorder.waitForRoute(to: hdmi.id, after: mark).reason == .preferencesChanged)
            try await rig.expectRoute(on: hdmi, streams: [stream], "with the HDMI-like sink named")

            mark = await rig.recorder.count
            await rig.manager.setPreferences([.device(virtual.id), .kind(.speakerphone)])
            #expect(try await rig.recorder.waitForRoute(to: virtual.id, after: mark).reason == .preferencesChanged)
            try await rig.expectRoute(on: virtual, streams: [stream], "with the virtual sink named")

            // By kind again: back to the speaker, though another high-ranked sink appears.
            mark = await rig.recorder.count
            await rig.manager.setPreferences(byKind)
            #expect(try await rig.recorder.waitForRoute(to: speaker.id, after: mark).reason == .preferencesChanged)
            try await rig.expectRoute(on: speaker, streams: [stream], "with kinds only")
            mark = await rig.recorder.count
            let second = ConventionDevice.hdmi("hdmi_second", "Second HDMI")
            try await rig.plug(second)
            try await rig.waitForManagerDevices(after: mark, containing: second.id)
            try await rig.expectNoRouteChange(after: mark, "another HDMI-like sink appeared")
            try await rig.expectRoute(on: speaker, streams: [stream], "after another HDMI-like sink appeared")
        }
    }
}
