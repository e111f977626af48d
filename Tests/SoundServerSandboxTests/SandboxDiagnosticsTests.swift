import ConcurrencySupport
import Foundation
@testable import SoundServerSandbox
import Testing

/// What a sandbox keeps of a failure before its folder goes (Docs/Reliability.md).
@Suite struct SandboxDiagnosticsTests {
    @Test(arguments: SoundServerKind.allCases)
    func aFailingBodyLeavesTheLogsWhatANewClientSeesAndTheDefaultMetadata(kind: SoundServerKind) async throws {
        struct Failed: Error, CustomStringConvertible {
            var description: String { "timed out waiting for the default (the long-lived connection saw none)" }
        }
        let directory = LockedValue<String?>(nil)
        await #expect(throws: Failed.self) {
            try await SandboxServer.withServer(kind) { server in
                directory.withLock { $0 = server.directory }
                _ = try await server.loadNullSink(name: "kept_sink", properties: ["device.description": "Kept"])
                throw Failed()
            }
        }
        let sandbox = try #require(directory.withLock { $0 })
        let folder = try #require(SandboxDiagnostics.folder(for: sandbox, kind: kind, environment: ProcessInfo.processInfo.environment))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(!FileManager.default.fileExists(atPath: sandbox), "the sandbox itself still goes")

        let note = try String(contentsOfFile: folder + "/note.txt", encoding: .utf8)
        #expect(note.contains("the long-lived connection saw none"))
        let sinks = try String(contentsOfFile: folder + "/fresh-client-sinks.txt", encoding: .utf8)
        #expect(sinks.contains("kept_sink"))
        let info = try String(contentsOfFile: folder + "/fresh-client-info.txt", encoding: .utf8)
        #expect(info.contains("Default Sink:"))
        let streams = try String(contentsOfFile: folder + "/fresh-client-sink-inputs.txt", encoding: .utf8)
        #expect(streams.contains("pactl list sink-inputs\n# exit status 0"), "\(streams)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".log") }
        switch kind {
        case .pulseaudio:
            #expect(logs == ["pulseaudio.log"])
            #expect(!FileManager.default.fileExists(atPath: folder + "/default-metadata.txt"))
        case .pipewire:
            #expect(Set(logs) == ["dbus-daemon.log", "pipewire.log", "wireplumber.log", "pipewire-pulse.log"])
            let metadata = try String(contentsOfFile: folder + "/default-metadata.txt", encoding: .utf8)
            #expect(metadata.contains("\"default\" metadata"), "\(metadata)")
        }
    }

    @Test func aSecondMomentIsKeptBesideTheFirst() async throws {
        let folders = try await SandboxServer.withServer(.pulseaudio) { server in
            (await server.keepDiagnostics(note: "while the connections are open"),
             await server.keepDiagnostics(note: "after the manager stopped"))
        }
        let first = try #require(folders.0)
        let second = try #require(folders.1)
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        #expect(second == first + "-2")
        #expect(try String(contentsOfFile: first + "/note.txt", encoding: .utf8) == "while the connections are open\n")
        #expect(try String(contentsOfFile: second + "/note.txt", encoding: .utf8) == "after the manager stopped\n")
    }

    @Test func aPassingBodyKeepsNothing() async throws {
        let directory = LockedValue<String?>(nil)
        try await SandboxServer.withServer(.pulseaudio) { server in
            directory.withLock { $0 = server.directory }
        }
        let sandbox = try #require(directory.withLock { $0 })
        let folder = try #require(SandboxDiagnostics.folder(for: sandbox, kind: .pulseaudio, environment: [:]))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func eachDebugVariableReachesItsDaemonOnly() {
        let environment = ["ROUTEKIT_SANDBOX_PIPEWIRE_PULSE_DEBUG": "4", "ROUTEKIT_SANDBOX_WIREPLUMBER_DEBUG": "3"]
        #expect(SandboxDiagnostics.debugEnvironment(for: .pipewirePulse, from: environment) == ["PIPEWIRE_DEBUG": "4"])
        #expect(SandboxDiagnostics.debugEnvironment(for: .wireplumber, from: environment) == ["WIREPLUMBER_DEBUG": "3"])
        #expect(SandboxDiagnostics.debugEnvironment(for: .pipewire, from: environment).isEmpty)
        #expect(SandboxDiagnostics.debugEnvironment(for: .pipewirePulse, from: [:]).isEmpty)
    }

    @Test func theFolderIsNamedAfterTheSandboxAndCanBeTurnedOff() {
        #expect(SandboxDiagnostics.folder(for: "/tmp/routekit-sandbox-AbC123", kind: .pipewire, environment: [:])
            == "/tmp/routekit-diagnostics/pipewire-routekit-sandbox-AbC123")
        #expect(SandboxDiagnostics.folder(for: "/tmp/routekit-sandbox-x", kind: .pulseaudio,
                                          environment: ["ROUTEKIT_SANDBOX_DIAGNOSTICS": "/var/tmp/kept"])
            == "/var/tmp/kept/pulseaudio-routekit-sandbox-x")
        #expect(SandboxDiagnostics.folder(for: "/tmp/routekit-sandbox-x", kind: .pulseaudio,
                                          environment: ["ROUTEKIT_SANDBOX_DIAGNOSTICS": "0"]) == nil)
    }
}
