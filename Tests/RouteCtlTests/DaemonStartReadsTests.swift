import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// What `routectl daemon` reads from the server as it starts, from its request trace
/// (`ROUTEKIT_PULSE_TRACE`, the one `scripts/reliability/storm` counts): the devices once, by the
/// manager; its first lines name preferred device ids that are not present.
@Suite("routectl daemon: its reads at start")
struct DaemonStartReadsTests {
    /// Runs `routectl daemon ARGUMENTS` on `server` with its requests traced until its route
    /// is reported, stops it, and returns its first line and the trace.
    static func traced(_ arguments: [String], on server: SandboxServer) async throws -> (first: String, trace: [String]) {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-trace-\(UUID().uuidString)").path
        defer { unlink(trace) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["PULSE_SERVER", "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            environment[name] = nil
        }
        environment["ROUTEKIT_PULSE_TRACE"] = trace
        let daemon = try await RunningProcess(try Executable.built("routectl").url,
                                              ["daemon", "--no-dbus", "--server", server.socketPath] + arguments,
                                              environment: environment)
        let log = daemon.standardError
        let first = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
        _ = try await log.next("the route at start") { $0.hasPrefix("route: ") && $0.hasSuffix("(started)") }
        daemon.send(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        return (first, text.split(separator: "\n").map(String.init))
    }

    /// The trace's lines that read every device of a kind.
    static func deviceLists(_ trace: [String]) -> [String] {
        trace.filter { $0.hasSuffix(" list cards") || $0.hasSuffix(" list sinks") || $0.hasSuffix(" list sources") }
    }

    // PulseAudio only: on PipeWire the manager's start may renew its connection and read the
    // server again, by design, when a connection made for the purpose reads another default
    // (Docs/Reliability.md).
    @Test("the devices are listed once, by the manager, whether the preferences name kinds or a device id",
          arguments: [["bluetooth", "speakerphone"], ["bluetooth", "usb_missing", "speakerphone"]])
    func devicesListedOnce(preferences: [String]) async throws {
        try await SandboxServer.withServer(.pulseaudio) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DaemonTests.speaker)
            let run = try await Self.traced(preferences.flatMap { ["--prefer", $0] }, on: server)
            #expect(run.first.contains("preferring \(preferences.joined(separator: ", then "))"))
            #expect(Self.deviceLists(run.trace).count == 3, "cards, sinks and sources once: \(run.trace)")
        }
    }

    /// Asked while the manager was starting, its device list was empty and every id was named
    /// "not present" (seen here on PulseAudio before the announcement waited for the first
    /// reading).
    @Test("a preferred device id not present is named on the first lines; one present is not",
          arguments: SoundServerKind.allCases)
    func absentIDNamed(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DaemonTests.speaker)
            let daemon = try await RunningProcess(try Executable.built("routectl"),
                                                  ["daemon", "--no-dbus", "--server", server.socketPath,
                                                   "--prefer", "speaker", "--prefer", "usb_missing"])
            let log = daemon.standardError
            _ = try await log.next("the route at start") { $0.hasPrefix("route: ") && $0.hasSuffix("(started)") }
            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
            let lines = try await log.all()
            #expect(lines.contains("daemon: no device \"usb_missing\" is present now; it is used when it appears ('routectl list' shows the ids)"),
                    "\(lines)")
            #expect(!lines.contains { $0.contains("no device \"speaker\"") }, "\(lines)")
        }
    }
}
