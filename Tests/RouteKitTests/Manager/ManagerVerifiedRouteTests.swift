import ConcurrencySupport
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// The verified route on real servers: a switch counts when the server says it happened. A
/// device that vanishes in the middle of a switch makes the switch fail; the manager reports
/// it and falls through to the next preference.
///
/// The vanishing is made deterministic by an ``InterposingServer`` between the manager and
/// its (real) connection: just before the manager's request of one step reaches the server,
/// the device's module is unloaded through the observer and the test waits until the server
/// no longer lists it. Every request still goes to the real server, which refuses or does
/// what it does; only the moment of the removal is chosen.
@Suite("AudioDeviceManager on real servers: verified route")
struct ManagerVerifiedRouteTests {
    /// When, in a switch, the device goes away.
    enum Moment: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// Before the request that makes it the default: the server refuses the request.
        case beforeDefault
        /// After the server accepted it as the default, before the streams move and the
        /// manager reads the default back: the server has fallen back to another sink by itself.
        case afterDefault

        var testDescription: String { rawValue }
    }

    @Test("a device removed mid-switch: switchFailed, then the next preference, verified on the server",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, Moment.allCases)
    func removedMidSwitch(kind: SoundServerKind, moment: Moment) async throws {
        let earpiece = ConventionDevice.earpiece()
        let usb = ConventionDevice.wiredHeadset("usb_headset")
        let doomed = ConventionDevice.bluetoothHeadset("bt_doomed", "Doomed Headset")
        let trap = Trap(sink: doomed.name, moment: moment)
        try await LiveManagerRig.run(kind, preferences: [.kind(.earpiece)], wrap: { InterposingServer(base: $0, trap: trap) }) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(usb)
            try await rig.plug(doomed)
            let stream = try await rig.play(on: earpiece)
            defer { stream.stop() }
            try await rig.start(expecting: earpiece, streams: [stream])

            // Arm the trap: the first time the manager reaches `moment` for the doomed
            // headset, it is unplugged first.
            trap.arm { try await rig.unplug(doomed) }
            let mark = await rig.recorder.count
            await rig.manager.setPreferences([.device(doomed.id), .kind(.wiredHeadset), .kind(.earpiece)])
            #expect(trap.hasFired, "the manager switched to the named headset")
            let change = try await rig.recorder.waitForRoute(to: usb.id, after: mark)
            #expect(change.reason == .fellThrough)
            #expect(change.from?.id == earpiece.id)

            // The failure was announced before the route change that followed it.
            let failures = await rig.recorder.switchFailures(after: mark)
            #expect(failures.map(\.device.id) == [doomed.id], "\(failures)")
            if let failure = failures.first {
                switch moment {
                case .beforeDefault where kind == .pulseaudio:
                    // PulseAudio refuses a default that no longer exists.
                    #expect(failure.reason.step == .defaultSink, "\(failure.reason)")
                    #expect(failure.reason.code == .noSuchEntity, "\(failure.reason)")
                case .beforeDefault:
                    // pipewire-pulse refuses it too, or, when the manager's connection has not
                    // yet seen the node go, accepts it and WirePlumber never applies it.
                    let refused = failure.reason.step == .defaultSink && failure.reason.code == .noSuchEntity
                    #expect(refused || failure.reason.step == .verification, "\(failure.reason)")
                case .afterDefault:
                    #expect(failure.reason.step == .verification, "\(failure.reason)")
                }
            }
            let changes = await rig.recorder.routeChanges(after: mark)
            #expect(changes.count == 1, "one move, to the next preference: \(changes)")
            try await rig.expectRoute(on: usb, streams: [stream], "after falling through")
        }
    }

    @Test("after every switch the reported route is the server's default", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func reportedIsActual(kind: SoundServerKind) async throws {
        let earpiece = ConventionDevice.earpiece()
        let speaker = ConventionDevice.speakerphone()
        let usb = ConventionDevice.wiredHeadset("usb_headset")
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        let hdmi = ConventionDevice.hdmi()
        try await LiveManagerRig.run(kind, preferences: [.kind(.earpiece)]) { rig in
            for device in [earpiece, speaker, usb, headset, hdmi] { try await rig.plug(device) }
            try await rig.expectServerDefault(hdmi, "before the manager starts")
            let stream = try await rig.play(on: hdmi)
            defer { stream.stop() }
            try await rig.start(expecting: earpiece, streams: [stream])
            // Each preference change is one switch; after each, what the manager reports is
            // what a second connection reads from the server.
            for (preferences, expected) in [([AudioPreference.kind(.speakerphone)], speaker), ([.kind(.wiredHeadset)], usb),
                                            ([.kind(.bluetooth)], headset), ([.device(earpiece.id)], earpiece)] {
                let mark = await rig.recorder.count
                await rig.manager.setPreferences(preferences)
                // setPreferences returns once the switch is verified: no waiting needed for
                // the manager's side.
                #expect(rig.manager.selectedAudioDevice?.id == expected.id, "\(preferences)")
                #expect(rig.manager.selectedAudioDevice?.output?.deviceName == (try await rig.defaultSink()),
                        "reported route = server default for \(preferences)")
                #expect(try await rig.recorder.waitForRoute(to: expected.id, after: mark).reason == .preferencesChanged)
                try await rig.expectRoute(on: expected, streams: [stream], "for \(preferences)")
            }
        }
    }

    @Test("at start with the default already on the preferred device, a stream pinned elsewhere stays there",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func startInPlaceLeavesPinnedStreams(kind: SoundServerKind) async throws {
        let earpiece = ConventionDevice.earpiece()
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.earpiece)]) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(speaker)
            try await rig.observer.setDefaultSink(earpiece.name)
            try await rig.expectServerDefault(earpiece, "as configured")
            // Started on the speaker by name while the earpiece is the default: pinned there
            // by its user, as module-switch-on-connect would leave it.
            let pinned = try await rig.play(on: speaker)
            defer { pinned.stop() }
            try await rig.start(expecting: earpiece)
            try await rig.expectNoRouteChange(after: await rig.recorder.count, "nothing to switch")
            #expect(try await rig.sinkName(of: pinned) == speaker.name, "the pinned stream stays where its user put it")
        }
    }
}

final class Trap: Sendable {
    let sink: String
    let moment: ManagerVerifiedRouteTests.Moment
    private struct State {
        var action: (@Sendable () async throws -> Void)?
        var fired = false

        mutating func take() -> (@Sendable () async throws -> Void)? {
            defer {
                action = nil
                fired = true
            }
            return action
        }
    }
    private let state = LockedValue(State())

    init(sink: String, moment: ManagerVerifiedRouteTests.Moment) {
        self.sink = sink
        self.moment = moment
    }

    /// Sets what to do when the moment comes (once).
    func arm(_ action: @escaping @Sendable () async throws -> Void) {
        state.withLock { $0.action = action }
    }

    var hasFired: Bool { state.withLock { $0.fired } }

    /// Called before the manager's `setDefaultSink(name)` goes to the server.
    func beforeSetDefaultSink(_ name: String) async throws {
        guard name == sink else { return }
        let action: (@Sendable () async throws -> Void)? = state.withLock { state in
            guard state.action != nil else { return nil }
            guard moment == .beforeDefault else { return nil }
            return state.take()
        }
        try await action?()
    }

    /// Called after the manager's `setDefaultSink(name)` was answered, before the manager
    /// has seen the server's confirmation: the device goes between request and confirmation.
    func afterSetDefaultSink(_ name: String) async throws {
        guard name == sink else { return }
        let action: (@Sendable () async throws -> Void)? = state.withLock { state in
            guard state.action != nil, moment == .afterDefault else { return nil }
            return state.take()
        }
        try await action?()
    }
}

/// A real connection with a ``Trap`` in front of its default-sink request.
struct InterposingServer: ForwardingServer {
    let base: PulseClient
    let trap: Trap

    func setDefaultSink(_ sink: String) async throws {
        try await trap.beforeSetDefaultSink(sink)
        try await base.setDefaultSink(sink)
        try await trap.afterSetDefaultSink(sink)
    }
}
