import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// `routectl daemon` and its configuration file through the built binary: read at start
/// (default place or --config), refused with its line and key when invalid, reloaded on
/// SIGHUP, a bad reload keeping the running configuration.
@Suite("routectl daemon's configuration file")
struct DaemonConfigurationFileTests {
    @Test("the default file is read, and a good reload on SIGHUP applies at once", arguments: SoundServerKind.allCases)
    func goodReload(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            try session.writeConfiguration(#"preferences = ["speakerphone"]"# + "\n")
            let daemon = try await session.start(["daemon"])
            let log = daemon.standardError
            let running = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            #expect(running.hasSuffix("preferring speakerphone"), "\(running)")
            _ = try await log.next("the file") { $0 == "config: \(session.defaultConfigFile): preferring speakerphone; scope system" }
            // The daemon's own word that the switch is confirmed: another connection can see
            // the new default before the daemon's does, and a reload before the confirmation
            // replaces the switch under way.
            _ = try await log.next("the route on the speaker") { $0.hasPrefix("route: speaker ") }
            try await ServerObservation.waitForDefaultSink("speaker", on: session.server)

            try session.writeConfiguration("""
                preferences = ["wiredHeadset", "speakerphone"]
                [automatic]
                hold-off = "250ms"
                """)
            daemon.send(SIGHUP)
            // The new preferences are applied and the reload reported; the route line comes from
            // another task of the daemon, before or after the report.
            let lines = try await log.nextInAnyOrder("the route on the wired headset and the reload", [
                { $0.hasPrefix("route: usb_headset (USB Headset) <- speaker") },
                { [file = session.defaultConfigFile] in $0.hasPrefix("config: reloaded \(file)") },
            ])
            let reloaded = lines[1]
            #expect(reloaded.hasSuffix("preferring wiredHeadset, then speakerphone; scope system; hold-off 250ms"), "\(reloaded)")
            try await ServerObservation.waitForDefaultSink("usb_headset", on: session.server)

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
        }
    }

    @Test("a bad reload is refused with its line and key, and the running configuration stays", arguments: SoundServerKind.allCases)
    func badReload(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let file = session.home.appendingPathComponent("mine.toml").path
            try session.writeConfiguration(#"preferences = ["speakerphone"]"# + "\n", to: file)
            let daemon = try await session.start(["daemon", "--config", file])
            let log = daemon.standardError
            _ = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            try await ServerObservation.waitForDefaultSink("speaker", on: session.server)

            try session.writeConfiguration("""
                preferences = ["wiredHeadset"]
                [automatic]
                hold_off = "1s"
                """, to: file)
            daemon.send(SIGHUP)
            let refused = try await log.next("the refusal") { $0.hasPrefix("config: reload refused") }
            #expect(refused.contains("\(file):3: automatic.hold_off: unknown key in [automatic]; did you mean hold-off?"), "\(refused)")
            #expect(refused.contains("the running configuration stays"))

            // A reload applies before it reports: had the file been taken, audio would have
            // moved to the wired headset before this line.
            #expect(!log.lines.contains { $0.hasPrefix("route: usb_headset") }, "\(log.lines)")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "speaker")

            // A good file afterwards is taken.
            try session.writeConfiguration(#"preferences = ["wiredHeadset"]"# + "\n", to: file)
            daemon.send(SIGHUP)
            _ = try await log.nextInAnyOrder("the route on the wired headset and the reload", [
                { $0.hasPrefix("route: usb_headset (USB Headset) <- speaker") },
                { $0.hasPrefix("config: reloaded \(file): preferring wiredHeadset;") },
            ])
            try await ServerObservation.waitForDefaultSink("usb_headset", on: session.server)
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
        }
    }

    @Test("the hold-off: a device that appears is switched to once it has stayed that long")
    func holdOff() async throws {
        // PulseAudio, whose default stays where it is when a sink appears (WirePlumber may
        // move it to the newcomer itself, which the daemon then keeps).
        try await RouteCtlSession.with(.pulseaudio) { session in
            try session.writeConfiguration("""
                preferences = ["bluetooth", "speakerphone"]
                [automatic]
                never = ["bt_headset"]
                hold-off = "1s"
                """)
            let daemon = try await session.start(["daemon"])
            let log = daemon.standardError
            _ = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            try await ServerObservation.waitForDefaultSink("speaker", on: session.server)

            let plugged = ContinuousClock.now
            _ = try await session.server.loadNullSink(name: "bt_other", properties: [
                "device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Other"])
            _ = try await log.next("the route on the new headset") { $0.hasPrefix("route: bt_other (Other) <- speaker (deviceAppeared)") }
            #expect(ContinuousClock.now - plugged >= .milliseconds(950), "held back for its hold-off")
            #expect(!log.lines.contains { $0.hasPrefix("route: bt_headset") }, "never chosen by kind")
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
        }
    }

    @Test("an invalid file is refused at start with its line and key (78); a missing --config file exits 66")
    func refusedAtStart() async throws {
        try await RouteCtlSession.with(.pulseaudio) { session in
            try session.writeConfiguration("""
                # mine
                preferences = ["bluetoth"]
                """)
            let invalid = try await session.run(["daemon"])
            #expect(invalid.status == 78)
            #expect(invalid.standardError.hasPrefix(
                "routectl: \(session.defaultConfigFile):2: preferences: bluetoth: no such kind; did you mean bluetooth?"),
                "\(invalid.standardError)")

            let missing = try await session.run(["daemon", "--config", session.home.appendingPathComponent("none.toml").path])
            #expect(missing.status == 66)
            #expect(missing.standardError.contains("none.toml: no such file"), "\(missing.standardError)")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "bt_headset", "nothing was changed")
        }
    }
}
