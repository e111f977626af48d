import Foundation
import Glibc
import Logging
import PulseAudio
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import RouteKit
import SoundServerSandbox
import Testing

/// Preferences set at run time outlive the daemon: set through the daemon's control (what its
/// D-Bus API calls), kept in the state file, and back when `routectl daemon` starts again; a
/// state file that cannot be used is reported and left out.
@Suite("routectl daemon's run-time preferences")
struct DaemonPersistenceTests {
    /// Runs the daemon's engine in this process as `routectl daemon` does, with its control,
    /// until `body` returns.
    func withDaemonControl(_ session: RouteCtlSession, _ body: (EngineRoutingControl) async throws -> Void) async throws {
        let client = PulseClient(configuration: .init(server: session.server.socketPath, applicationName: "routectl-tests",
                                                      subscription: .devices))
        defer { client.shutdown() }
        try await client.connect()
        let startup = try DaemonStartup.prepare(overrides: DaemonOverrides(preferences: [.kind(.bluetooth)]), configFile: nil,
                                                environment: session.environment, report: { _ in })
        let manager = AudioDeviceManager(server: client, preferences: await startup.preferences.effective, logger: Logger(label: "test"))
        try await manager.start()
        let control = startup.routingControl(manager: manager, server: client)
        do {
            try await body(control)
        } catch {
            await manager.stop()
            throw error
        }
        await manager.stop()
    }

    @Test("preferences set at run time are kept, and come back at each start until cleared", arguments: SoundServerKind.allCases)
    func keptAcrossRestarts(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            try await withDaemonControl(session) { control in
                try await control.setPreferences(["wiredHeadset", "speakerphone"])
                try await ServerObservation.waitForDefaultSink("usb_headset", on: session.server)
                let status = try await control.status()
                #expect(status.preferences == ["wiredHeadset", "speakerphone"])
                #expect(status.preferencesOrigin == .runTime)
                #expect(status.why == "the first preference, wiredHeadset")
            }
            var status = stat()
            #expect(stat(session.stateFile, &status) == 0 && status.st_mode & 0o777 == 0o600)
            _ = try await session.server.pactl("set-default-sink", "bt_headset")

            // routectl daemon, started twice: the preferences are back each time, over --prefer.
            for run in 1...2 {
                let daemon = try await session.start(["daemon", "--prefer", "bluetooth"])
                let log = daemon.standardError
                let running = try await log.next("the first line of run \(run)") { $0.hasPrefix("daemon: running") }
                #expect(running.hasSuffix("preferring wiredHeadset, then speakerphone"), "\(running)")
                _ = try await log.next("the restored preferences") { $0.hasPrefix("state: preferences set with 'routectl prefer' restored") }
                try await ServerObservation.waitForDefaultSink("usb_headset", on: session.server)
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
            }

            // Cleared: the configured ones (here --prefer) apply again, at once and at the next start.
            try await withDaemonControl(session) { control in
                try await control.clearPreferences()
                try await ServerObservation.waitForDefaultSink("bt_headset", on: session.server)
                #expect(try await control.status().preferencesOrigin == .commandLine)
            }
            let daemon = try await session.start(["daemon", "--prefer", "speakerphone"])
            let running = try await daemon.standardError.next("the first line") { $0.hasPrefix("daemon: running") }
            #expect(running.hasSuffix("preferring speakerphone"), "\(running)")
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0)
        }
    }

    @Test("a corrupt state file is reported and ignored, never fatal")
    func corruptStateFile() async throws {
        try await RouteCtlSession.with(.pulseaudio) { session in
            try session.writeConfiguration("{ \"version\": 1, \"preferences\": [", to: session.stateFile)
            let daemon = try await session.start(["daemon", "--prefer", "speakerphone"])
            let log = daemon.standardError
            let running = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            #expect(running.hasSuffix("preferring speakerphone"), "\(running)")
            let reported = try await log.next("the report") { $0.hasPrefix("state: \(session.stateFile) is unusable") }
            #expect(reported.hasSuffix("ignoring it"), "\(reported)")
            try await ServerObservation.waitForDefaultSink("speaker", on: session.server)
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
        }
    }
}
