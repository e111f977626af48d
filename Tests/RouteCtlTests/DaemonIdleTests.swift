import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// An idle `routectl daemon` wakes for nothing: once the time limits its start sets have
/// passed, none of its threads makes a context switch. With Swift's default executor,
/// libdispatch's worker-pool monitor woke it once a second (Docs/Benchmarks.md).
@Suite("routectl daemon idle")
struct DaemonIdleTests {
    @Test("once started, no thread of the daemon wakes while nothing happens", arguments: SoundServerKind.allCases)
    func noWakeUps(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DaemonTests.speaker)
            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "speakerphone", "--no-dbus",
                                                       "--server", server.socketPath])
            _ = try await daemon.standardError.next("the route on the speaker") { $0.hasPrefix("route: speaker ") }
            // Its start sets time limits that fire once even when met (Swift's Task.sleep leaves a
            // cancelled sleep's wake-up scheduled): the switch's 3 s confirmation, pw-metadata's
            // 5 s; on PipeWire the start's reading of the default on a new connection, bounded
            // to 1 s. Idleness is what follows; measuring it takes a span of time.
            try await Task.sleep(for: .seconds(6))
            let before = Self.contextSwitches(of: daemon.processIdentifier)
            try await Task.sleep(for: .milliseconds(2_500))
            let after = Self.contextSwitches(of: daemon.processIdentifier)
            #expect(before == after, "context switches by thread: \(before) then \(after)")

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
        }
    }

    /// Context switches (voluntary and involuntary) of each thread of `pid`, by thread id.
    static func contextSwitches(of pid: pid_t) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var counts: [String: Int] = [:]
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            counts[task] = status.split(separator: "\n")
                .filter { $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
        }
        return counts
    }
}
