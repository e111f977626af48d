import Logging
import PulseAudio
@testable import RouteKitDaemon
import RouteKit
import RouteKitTesting
import ServiceLifecycle
import TestSupport
import Testing

/// The daemon's check of the default sink in its first seconds on PipeWire, on a simulated
/// server that misses a change of the default as pipewire-pulse does (Docs/Reliability.md,
/// "The PipeWire default that never reaches long-lived connections").
@Suite("routectl daemon: the default checked at start")
struct StartupDefaultCheckTests {
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let headsetSink = "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink"

    /// A laptop and a Bluetooth headset, and a manager preferring Bluetooth, started on it.
    func withManager(_ body: (SimulatedServer, AudioDeviceManager) async throws -> Void) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        try await server.setDefaultSink(Self.laptopSink)
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth)], logger: Logger(label: "test"))
        try await manager.start()
        // Returns once the machine has settled: the switch to the headset confirmed.
        await manager.refreshSpeakerphoneSetting()
        #expect(try await server.serverInfo().defaultSinkName == Self.headsetSink)
        try await body(server, manager)
        await manager.stop()
    }

    @Test("a default the daemon's connection missed at start is read again and the route put back")
    func missedAtStart() async throws {
        try await withManager { server, manager in
            // WirePlumber restores the laptop as the default while a client connects: missed.
            try server.simulateMissedDefaultSink(Self.laptopSink)
            let events = server.events()
            let check = StartupDefaultCheck(manager: manager, readDefaultSink: { try server.serverInfoAfresh().defaultSinkName },
                                            checks: [.milliseconds(20)], logger: Logger(label: "test"))
            try await Self.running(check) {
                try await withTimeout("the headset the default again, read afresh") {
                    for await _ in events where try server.serverInfoAfresh().defaultSinkName == Self.headsetSink { return }
                }
            }
            #expect(try await server.serverInfo().defaultSinkName == Self.headsetSink, "the connection's view agrees")
        }
    }

    @Test("a default that cannot be read changes nothing, and the service runs on until shutdown")
    func unreadable() async throws {
        try await withManager { server, manager in
            let (asked, asking) = AsyncStream.makeStream(of: Void.self)
            let check = StartupDefaultCheck(manager: manager, readDefaultSink: {
                asking.yield()
                throw TimedOut(what: "pw-metadata")
            }, checks: [.milliseconds(10), .milliseconds(20)], logger: Logger(label: "test"))
            try await Self.running(check) {
                var iterator = asked.makeAsyncIterator()
                for _ in 0..<2 { await iterator.next() }
            }
            #expect(try server.serverInfoAfresh().defaultSinkName == Self.headsetSink)
        }
    }

    /// Runs `check` in a service group while `body` runs, then shuts it down gracefully; fails
    /// if the service ended the group before that (a daemon's service must not).
    static func running(_ check: StartupDefaultCheck, _ body: @Sendable () async throws -> Void) async throws {
        let group = ServiceGroup(services: [check], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            tasks.addTask {
                try await group.run()
                return true
            }
            try await body()
            tasks.addTask { false }
            let first = try await tasks.next()
            #expect(first == false, "the service ended before its shutdown")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
