import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// Real servers, both kinds: start, virtual devices, faults, stop.
@Suite struct SandboxServerTests {
    @Test(arguments: SoundServerKind.allCases)
    func startsAServerThatAnswersOnItsOwnSocket(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            let info = try await server.pactl("info")
            switch kind {
            case .pulseaudio: #expect(info.contains("Server Name: pulseaudio"))
            case .pipewire: #expect(info.contains("Server Name: PulseAudio (on PipeWire"))
            }
            #expect(info.contains("Server String: \(server.serverAddress)"))
            #expect(server.serverAddress == "unix:" + server.socketPath)
            #expect(server.socketPath.hasPrefix(server.directory + "/"))
            #expect(server.directory.hasPrefix("/tmp/routekit-sandbox-"))
            #expect(server.environment["PULSE_SERVER"] == server.serverAddress)
            #expect(server.environment["HOME"] == server.directory)
            #expect(server.environment["XDG_RUNTIME_DIR"] == server.directory)
            #expect((server.environment["DBUS_SESSION_BUS_ADDRESS"] != nil) == (kind == .pipewire))
            #expect(server.processIDs.count == (kind == .pulseaudio ? 1 : 4))
        }
    }

    @Test(arguments: SoundServerKind.allCases)
    func nullSinksAppearWithTheirPropertiesAndGoAwayWhenUnloaded(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            let module = try await server.loadNullSink(name: "bt_headset", properties: [
                "device.bus": "bluetooth",
                "device.form_factor": "headset",
                "device.description": "BT Headset Pro 2",
            ])
            let sink = try #require(try await sinkBlock(named: "bt_headset", on: server))
            #expect(sink.contains("Description: BT Headset Pro 2"))
            #expect(sink.contains("device.description = \"BT Headset Pro 2\""))
            #expect(sink.contains("device.bus = \"bluetooth\""))
            #expect(sink.contains("device.form_factor = \"headset\""))

            try await server.unloadModule(module)
            #expect(try await sinkBlock(named: "bt_headset", on: server) == nil)
        }
    }

    @Test(arguments: SoundServerKind.allCases)
    func quotesInPropertiesAreRejectedAndUnknownModulesReportTheFailure(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            await #expect(throws: SandboxError.self) {
                try await server.loadNullSink(name: "quoted", properties: ["device.description": "Bob's"])
            }
            let error = await #expect(throws: SandboxError.self) {
                try await server.unloadModule(4_000_000_000)
            }
            #expect(error?.command == ["pactl", "unload-module", "4000000000"])
            #expect(error?.exitStatus == 1)
            #expect(error?.standardError.isEmpty == false)
        }
    }

    @Test(arguments: SoundServerKind.allCases)
    func freezeStopsThePulseProcessAndThawLetsAPendingRequestFinish(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            // The PulseAudio-protocol process is the last one started.
            let pulse = try #require(server.processIDs.last)
            try server.freeze()
            #expect(try processState(pulse) == "T")
            async let pending = server.pactl("info")
            try server.thaw()
            #expect(try await pending.contains("Server String: \(server.serverAddress)"))
            #expect(try processState(pulse) != "T")
        }
    }

    @Test(arguments: SoundServerKind.allCases)
    func crashKillsThePulseProcessAndRestartServesTheSameSocketAgain(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "before_crash")
            let before = server.processIDs
            try await server.crash()
            #expect(server.processIDs == Array(before.dropLast()))
            #expect(!isAlive(before.last!))
            await #expect(throws: SandboxError.self) { try await server.pactl("info") }

            try await server.restart()
            let after = server.processIDs
            #expect(after.count == before.count)
            #expect(Array(after.dropLast()) == Array(before.dropLast()))
            #expect(after.last != before.last)
            #expect(try await server.pactl("info").contains("Server String: \(server.serverAddress)"))
            #expect(try await sinkBlock(named: "before_crash", on: server) == nil)
            _ = try await server.loadNullSink(name: "after_restart")
            #expect(try await sinkBlock(named: "after_restart", on: server) != nil)
        }
    }

    @Test(arguments: SoundServerKind.allCases)
    func stopEndsEveryProcessAndDeletesTheDirectoryEvenWhenTheBodyThrows(kind: SoundServerKind) async throws {
        struct Failure: Error {}
        var captured: SandboxServer?
        var pids: [Int32] = []
        await #expect(throws: Failure.self) {
            try await SandboxServer.withServer(kind) { server in
                captured = server
                pids = server.processIDs
                try server.freeze()  // a frozen server must stop too
                throw Failure()
            }
        }
        let server = try #require(captured)
        #expect(pids.count == (kind == .pulseaudio ? 1 : 4))
        #expect(server.processIDs.isEmpty)
        #expect(pids.allSatisfy { !isAlive($0) })
        #expect(!FileManager.default.fileExists(atPath: server.directory))
        await server.stop()  // idempotent
        #expect(server.processIDs.isEmpty)
    }

    @Test(arguments: SoundServerKind.allCases)
    func twoSandboxesStartedTogetherAreIndependent(kind: SoundServerKind) async throws {
        async let startingFirst = SandboxServer.start(kind)
        async let startingSecond = SandboxServer.start(kind)
        let (first, second) = try await (startingFirst, startingSecond)
        do {
            #expect(first.directory != second.directory)
            #expect(first.socketPath != second.socketPath)
            #expect(Set(first.processIDs).isDisjoint(with: second.processIDs))

            _ = try await first.loadNullSink(name: "only_in_first")
            #expect(try await sinkBlock(named: "only_in_first", on: first) != nil)
            #expect(try await sinkBlock(named: "only_in_first", on: second) == nil)

            try await first.crash()
            #expect(try await second.pactl("info").contains("Server String: \(second.serverAddress)"))
        } catch {
            await first.stop()
            await second.stop()
            throw error
        }
        await first.stop()
        await second.stop()
    }
}

/// The block of `pactl list sinks` for the sink called `name`, if there is one.
private func sinkBlock(named name: String, on server: SandboxServer) async throws -> String? {
    let listing = try await server.pactl("list", "sinks")
    return listing.components(separatedBy: "Sink #").first { $0.contains("\tName: \(name)\n") }
}

/// Whether a process with this pid exists.
private func isAlive(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}

/// The state letter of a process in `/proc/<pid>/stat` ("T" when stopped).
private func processState(_ pid: Int32) throws -> String {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // "pid (comm) S …": the state follows the last ')'.
    let afterName = try #require(stat.range(of: ")", options: .backwards)).upperBound
    return String(stat[afterName...].dropFirst().prefix(1))
}
