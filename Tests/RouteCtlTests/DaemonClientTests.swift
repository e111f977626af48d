import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// routectl's commands while `routectl daemon` runs: they go through its D-Bus API, on a
/// private session bus, against sandboxed servers. Checked through the daemon's properties
/// (`busctl --user get-property`), `routectl status --json`, the state file and the server
/// (pactl); waits are on the daemon's lines and the server's events.
@Suite("routectl through the running daemon")
struct DaemonClientTests {
    /// A session (speaker, USB headset, Bluetooth headset) with a private session bus.
    struct Context {
        let session: RouteCtlSession
        let clients: SessionBusClients

        /// The session's environment, with the private bus.
        var environment: [String: String] {
            var environment = session.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = clients.bus.address
            return environment
        }

        /// `routectl ARGUMENTS` to its end, on the private bus, with `--server` but for `prefer`
        /// (which takes none: only the daemon uses preferences).
        func routectl(_ arguments: [String]) async throws -> Executable.Output {
            try await session.run(arguments, server: arguments.first != "prefer",
                                  extra: ["DBUS_SESSION_BUS_ADDRESS": clients.bus.address])
        }

        /// `routectl daemon --prefer wiredHeadset` (the configured preference), serving the API
        /// and with its first route line read.
        func startDaemon() async throws -> RunningProcess {
            let daemon = try await RunningProcess(session.routectl.url,
                                            ["daemon", "--prefer", "wiredHeadset", "--server", session.server.socketPath],
                                            environment: environment)
            _ = try await daemon.standardError.next("the daemon to serve the API") { $0.hasPrefix("dbus: serving") }
            _ = try await daemon.standardError.next("the first route") { $0.hasPrefix("route: ") }
            return daemon
        }

        /// Stops `daemon` with SIGTERM and expects a clean exit.
        func stop(_ daemon: RunningProcess) async throws {
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
        }

        /// `routectl status --json`, parsed.
        func status() async throws -> [String: Any] {
            let output = try await routectl(["status", "--json"])
            #expect(output.status == 0, "\(output.standardError)")
            return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        }
    }

    static func with(_ kind: SoundServerKind, _ body: (Context) async throws -> Void) async throws {
        try await RouteCtlSession.with(kind) { session in
            try await PrivateSessionBus.withBus { bus in
                try await body(Context(session: session, clients: SessionBusClients(bus: bus)))
            }
        }
    }

    @Test("prefer sets the daemon's preferences, kept across a restart, and --clear brings back the configured ones",
          arguments: SoundServerKind.allCases)
    func prefer(kind: SoundServerKind) async throws {
        try await Self.with(kind) { context in
            var daemon = try await context.startDaemon()
            try await ServerObservation.waitForDefaultSink("usb_headset", on: context.session.server)

            let set = try await context.routectl(["prefer", "bluetooth", "speakerphone"])
            #expect(set.status == 0, "\(set.standardError)")
            #expect(set.standardOutput == "prefer: bluetooth, then speakerphone\n")
            #expect(try await context.clients.property("Preferences") == "as 2 \"bluetooth\" \"speakerphone\"")
            try await ServerObservation.waitForDefaultSink("bt_headset", on: context.session.server)
            var status = try await context.status()
            #expect(status["daemon"] as? Bool == true)
            #expect(status["daemonPid"] as? Int == Int(daemon.processIdentifier))
            #expect(status["preferences"] as? [String] == ["bluetooth", "speakerphone"])
            #expect(status["preferencesFrom"] as? String == "runTime")
            #expect((status["output"] as? [String: Any])?["id"] as? String == "bt_headset")
            #expect(status["why"] as? String == "the first preference, bluetooth")

            // Restarted: the state file brings them back, over --prefer.
            try await context.stop(daemon)
            daemon = try await context.startDaemon()
            #expect(try await context.clients.property("Preferences") == "as 2 \"bluetooth\" \"speakerphone\"")
            status = try await context.status()
            #expect(status["preferences"] as? [String] == ["bluetooth", "speakerphone"])
            #expect(status["preferencesFrom"] as? String == "runTime")
            let text = try await context.routectl(["status"])
            #expect(text.standardOutput.contains("Daemon:          running (pid \(daemon.processIdentifier))"), "\(text.standardOutput)")
            #expect(text.standardOutput.contains("Preferences:     bluetooth, speakerphone (set with 'routectl prefer'"),
                    "\(text.standardOutput)")

            // Cleared: the configured preference (--prefer wiredHeadset), now and at the next start.
            let cleared = try await context.routectl(["prefer", "--clear"])
            #expect(cleared.status == 0, "\(cleared.standardError)")
            #expect(try await context.clients.property("Preferences") == "as 1 \"wiredHeadset\"")
            try await ServerObservation.waitForDefaultSink("usb_headset", on: context.session.server)
            status = try await context.status()
            #expect(status["preferencesFrom"] as? String == "commandLine")
            try await context.stop(daemon)
            daemon = try await context.startDaemon()
            #expect(try await context.clients.property("Preferences") == "as 1 \"wiredHeadset\"")
            try await context.stop(daemon)

            // No daemon on the bus any more: prefer needs one.
            let refused = try await context.routectl(["prefer", "bluetooth"])
            #expect(refused.status == 68, "\(refused.standardError)")
            #expect(refused.standardError.contains("no daemon is running"))
        }
    }

    @Test("D-Bus SetPreferences is kept in the state file, and ClearPreferences brings back the configured ones")
    func busPreferences() async throws {
        try await Self.with(.pulseaudio) { context in
            var daemon = try await context.startDaemon()
            #expect(try await context.clients.call("SetPreferences", "as", "1", "speakerphone").status == 0)
            try await ServerObservation.waitForDefaultSink("speaker", on: context.session.server)
            let kept = try String(contentsOfFile: context.session.stateFile, encoding: .utf8)
            #expect(kept.contains("speakerphone"), "\(kept)")
            try await context.stop(daemon)
            daemon = try await context.startDaemon()
            #expect(try await context.clients.property("Preferences") == "as 1 \"speakerphone\"")
            #expect(try await context.clients.call("ClearPreferences").status == 0)
            #expect(try await context.clients.property("Preferences") == "as 1 \"wiredHeadset\"")
            try await ServerObservation.waitForDefaultSink("usb_headset", on: context.session.server)
            try await context.stop(daemon)
        }
    }

    @Test("use goes through the daemon, which keeps the choice; an unknown device exits 67 with the list, a misspelled kind 64",
          arguments: SoundServerKind.allCases)
    func use(kind: SoundServerKind) async throws {
        try await Self.with(kind) { context in
            let daemon = try await context.startDaemon()
            let used = try await context.routectl(["use", "speakerphone"])
            #expect(used.status == 0, "\(used.standardError)")
            #expect(used.standardOutput.contains("use: audio goes to speaker"), "\(used.standardOutput)")
            #expect(used.standardOutput.contains("kept while it is present"), "\(used.standardOutput)")
            #expect(try await context.clients.property("Selection") == "s \"speaker\"")
            try await ServerObservation.waitForDefaultSink("speaker", on: context.session.server)
            let status = try await context.status()
            #expect(status["selection"] as? String == "speaker")
            #expect(status["why"] as? String == "chosen with 'routectl use' (kept while it is present)")

            let unknown = try await context.routectl(["use", "nosuchdevice"])
            #expect(unknown.status == 67, "\(unknown.standardError)")
            #expect(unknown.standardError.contains("no device \"nosuchdevice\" is present."), "\(unknown.standardError)")
            #expect(unknown.standardError.contains("speaker (speakerphone)"), "\(unknown.standardError)")
            #expect(unknown.standardError.contains("bt_headset (bluetooth)"), "\(unknown.standardError)")

            let misspelled = try await context.routectl(["use", "speakerfone"])
            #expect(misspelled.status == 64, "\(misspelled.standardError)")
            #expect(misspelled.standardError.contains("did you mean speakerphone?"), "\(misspelled.standardError)")

            let released = try await context.routectl(["use", "--clear"])
            #expect(released.standardOutput == "use: the daemon's preferences decide again\n", "\(released)")
            #expect(try await context.clients.property("Selection") == "s \"\"")
            try await ServerObservation.waitForDefaultSink("usb_headset", on: context.session.server)
            #expect(try await ServerObservation.defaultSink(on: context.session.server) == "usb_headset")
            try await context.stop(daemon)
        }
    }

    @Test("call, speaker and mic go through the daemon: its properties follow")
    func callSpeakerMic() async throws {
        try await Self.with(.pulseaudio) { context in
            try await context.session.addMicrophone()
            let daemon = try await context.startDaemon()
            #expect(try await context.routectl(["call", "start"]).standardOutput == "call audio: on\n")
            #expect(try await context.clients.property("CallAudio") == "b true")
            #expect(try await context.routectl(["call", "start"]).standardOutput == "call audio: on (it was already)\n")
            #expect(try await context.routectl(["call", "end"]).status == 0)
            #expect(try await context.clients.property("CallAudio") == "b false")

            let speaker = try await context.routectl(["speaker", "on"])
            #expect(speaker.status == 0, "\(speaker.standardError)")
            #expect(try await context.clients.property("Speaker") == "b true")
            try await ServerObservation.waitForDefaultSink("speaker", on: context.session.server)
            #expect(try await context.routectl(["speaker", "off"]).status == 0)
            #expect(try await context.clients.property("Speaker") == "b false")

            #expect(try await context.routectl(["mic", "mute"]).status == 0)
            #expect(try await context.clients.property("MicMuted") == "b true")
            #expect(try await context.session.server.pactl("get-source-mute", "@DEFAULT_SOURCE@").contains("yes"))
            #expect(try await context.routectl(["mic", "unmute"]).status == 0)
            #expect(try await context.clients.property("MicMuted") == "b false")
            try await context.stop(daemon)
        }
    }
}
