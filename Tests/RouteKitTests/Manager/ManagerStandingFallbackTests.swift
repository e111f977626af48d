import ConcurrencySupport
import Dispatch
import Logging
@testable import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// The standing fallback on PulseAudio: the manager names, after every decision, the device it
/// would take if the route's sink went, and a connection that follows sinks alone makes it
/// the default as the removal is read (Docs/Benchmarks.md, "A standing order for the removal").
@Suite("AudioDeviceManager on PulseAudio: the standing fallback")
struct ManagerStandingFallbackTests {
    static let speaker = ConventionDevice.speakerphone()
    /// Ranked above the speaker by PulseAudio itself: its own pick when the headset goes.
    static let hdmi = ConventionDevice.hdmi()
    static let headset = ConventionDevice.bluetoothHeadset("bt_headset")

    @Test("the headset goes while the manager's own loop is held: the speaker, not the server's pick, is the default at once; the route follows, not taken back",
          .timeLimit(.minutes(1)))
    func fallbackWhileTheLoopIsHeld() async throws {
        let preferences: [AudioPreference] = [.kind(.bluetooth), .kind(.speakerphone)]
        try await LiveManagerRig.run(.pulseaudio, preferences: preferences) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.hdmi)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            // A command returns once the turn that handled it is over: the order is armed then.
            await rig.manager.setPreferences(preferences)

            let mark = await rig.recorder.count
            let held = try await LoopHold.holding(rig.managerClient)
            defer { held.release() }
            try await rig.unplug(Self.headset)
            try await waitUntil("the speaker the default while the manager's loop is held", observer: rig.observer,
                                timeout: .seconds(5)) {
                try await rig.defaultSink() == Self.speaker.name
            }
            #expect(await rig.recorder.count == mark, "the manager announced nothing while held")
            held.release()

            #expect(try await rig.recorder.waitForRoute(to: Self.speaker.id, after: mark).reason == .deviceFailed)
            try await rig.expectRoute(on: Self.speaker, "after the headset went")
            #expect(await rig.recorder.switchFailures(after: mark).isEmpty)
            #expect(await rig.recorder.routeChanges(after: mark).map(\.to?.id) == [Self.speaker.id], "one change, never taken back")
        }
    }

    @Test("its connection is open while the manager runs on PulseAudio, closed by stop(); none on PipeWire",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func connectionLifecycle(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.start(expecting: Self.speaker)
            let fallbackClients = { @Sendable in try await rig.observer.clients().filter { $0.name == "RouteKit fallback" }.count }
            #expect(try await fallbackClients() == (kind == .pulseaudio ? 1 : 0))
            await rig.manager.stop()
            try await waitUntil("no fallback connection after stop", observer: rig.observer, timeout: .seconds(5)) {
                try await fallbackClients() == 0
            }
        }
    }
}

extension ManagerStandingFallbackTests {
    @Test("a switch disarms the order before its request goes out, and the route it settles on is armed after",
          .timeLimit(.minutes(1)))
    func disarmedWhileSwitching() async throws {
        let log = RequestLog()
        let preferences: [AudioPreference] = [.kind(.bluetooth), .kind(.speakerphone)]
        try await LiveManagerRig.run(.pulseaudio, preferences: preferences, wrap: { LoggingServer(base: $0, log: log) }) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            await rig.manager.setPreferences(preferences)
            #expect(log.entries.last == "arm \(Self.speaker.name)", "settled on the headset: the speaker if it goes")

            log.clear()
            await rig.manager.setPreferences([.kind(.speakerphone), .kind(.bluetooth)])
            let entries = log.entries
            let disarmed = try #require(entries.firstIndex(of: "arm none"), "\(entries)")
            let request = try #require(entries.firstIndex(of: "set-default \(Self.speaker.name)"), "\(entries)")
            #expect(disarmed < request, "\(entries)")
            #expect(entries.last == "arm \(Self.headset.name)", "settled on the speaker: the headset if it goes; \(entries)")
        }
    }
}

/// What the manager asked of the server's default and of its standing fallback, in order.
final class RequestLog: Sendable {
    private let lines = LockedValue<[String]>([])
    var entries: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func clear() { lines.withLock { $0.removeAll() } }
}

/// A real connection whose default-sink requests and fallback orders are logged.
struct LoggingServer: ForwardingServer {
    let base: PulseClient
    let log: RequestLog

    func setDefaultSink(_ sink: String) async throws {
        log.append("set-default \(sink)")
        try await base.setDefaultSink(sink)
    }

    func openFallbackConnection(logger: Logger) async -> (any FallbackArming)? {
        guard let connection = await base.openFallbackConnection(logger: logger) else { return nil }
        return LoggingArming(base: connection, log: log)
    }
}

/// A fallback connection whose orders are logged by the fallback's sink name.
struct LoggingArming: FallbackArming {
    let base: any FallbackArming
    let log: RequestLog

    func arm(_ order: StandingFallback?) {
        log.append("arm \(order?.fallbackSink ?? "none")")
        base.arm(order)
    }

    func shutdown() { base.shutdown() }
}

/// The lock of a client's libpulse loop, held from a thread of its own: the client's
/// callbacks and the tasks that prefer its thread (the manager's loop) wait until released.
final class LoopHold: Sendable {
    private let release_ = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    /// Holds `client`'s loop lock; returns once it is held (at most 10 s, then let go).
    static func holding(_ client: PulseClient) async throws -> LoopHold {
        let hold = LoopHold()
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "loop-hold").async {
                client.core.loop.withLock {
                    held.resume()
                    _ = hold.release_.wait(timeout: .now() + 10)
                }
                hold.released.signal()
            }
        }
        return hold
    }

    /// Lets the loop go (once; later calls do nothing) and waits until it is let go.
    func release() {
        release_.signal()
        released.wait()
        released.signal()
    }
}
