import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// SIGHUP 1 000 times in a second while a device comes and goes: the daemon lives, reloads
/// (as often as the signals reach it, never more), keeps the file's preferences, and routes
/// by them once the device settles.
@Suite("routectl daemon under a SIGHUP storm")
struct DaemonReloadStormTests {
    @Test("1 000 SIGHUPs in a second while the headset comes and goes: the daemon lives and the route is the policy's",
          .timeLimit(.minutes(3)), arguments: SoundServerKind.allCases)
    func sighupStorm(kind: SoundServerKind) async throws {
        let drill = FaultDrill.fromEnvironment(defaultRepeats: 1)
        try await withTemporaryDirectory("reload-storm") { folder in
            let config = folder.appendingPathComponent("routekit.toml").path
            try "preferences = [\"bluetooth\", \"speakerphone\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
            try await DBusAPITests.withDaemon(kind, ["--config", config]) { server, clients, daemon in
                let log = daemon.standardError
                var headset = try await DaemonServerKillTests.module(named: "bt_headset", on: server)
                let clock = ContinuousClock()
                for round in 1...drill.repeats {
                    let before = log.lines.filter { $0.hasPrefix("config: reloaded") }.count
                    let plugged = headset
                    let started = clock.now
                    headset = try await withThrowingTaskGroup(of: UInt32?.self) { group in
                        group.addTask {
                            // A thousand signals spread over a second (a few hundred microseconds apart).
                            for index in 0..<1_000 {
                                daemon.send(SIGHUP)
                                try await Task.sleep(until: started + .microseconds(index * 1_000), clock: .continuous)
                            }
                            return nil
                        }
                        group.addTask {
                            var module = plugged
                            for _ in 0..<5 {
                                try await server.unloadModule(module)
                                module = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
                            }
                            return module
                        }
                        var module: UInt32?
                        for try await result in group { if let result { module = result } }
                        return module!
                    }
                    let stormed = started.duration(to: clock.now)
                    // The storm is over: one last reload, whose line says the file's preferences stand.
                    daemon.send(SIGHUP)
                    let last = try await log.next("a reload, round \(round)") { $0.hasPrefix("config: reloaded") }
                    #expect(last.contains("preferring bluetooth, then speakerphone"), "\(last)")
                    #expect(try await clients.call("Status").status == 0)
                    try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
                    // The daemon's route follows the server's default once its own connection
                    // has confirmed it (on PipeWire 1.4 maybe on a renewed connection): awaited
                    // through the property's changes, not read once.
                    let observer = try await clients.observer()
                    let changes = try await observer.signals(matching: DaemonContextTests.propertiesChanged)
                    try await DaemonContextTests.waitForProperty("Route", "s \"bt_headset\"", clients: clients, changes: changes)
                    withExtendedLifetime(observer) {}
                    let reloads = log.lines.filter { $0.hasPrefix("config: reloaded") }.count - before
                    #expect(reloads <= 1_001, "no more reloads than signals")
                    FaultDrill.figure("sighup-storm \(kind) round \(round)", "1000 signals in \(stormed), \(reloads) reloads")
                }
                #expect(!log.lines.contains { $0.hasPrefix("config: reload refused") })
            }
        }
    }
}
