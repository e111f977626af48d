import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// An idle `routectl daemon` wakes for nothing: once the time limits its start sets have
/// passed, none of its threads makes a context switch. With Swift's default executor,
/// libdispatch's worker-pool monitor woke it once a second (Docs/Benchmarks.md). With its
/// server gone it waits without running.
@Suite("routectl daemon idle")
struct DaemonIdleTests {
    @Test("once started, no thread of the daemon wakes while nothing happens", arguments: SoundServerKind.allCases)
    func noWakeUps(kind: SoundServerKind) async throws {
        try await Self.withDaemonOnSpeaker(kind) { server, daemon in
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

    @Test("its server killed just after a client came and went, the daemon waits for it without spinning",
          arguments: SoundServerKind.allCases)
    func noSpinWhileServerDown(kind: SoundServerKind) async throws {
        try await Self.withDaemonOnSpeaker(kind) { server, daemon in
            // pactl's client coming and going makes the check of a missed default due 300 ms
            // later (on PipeWire); the server dies before then. The check waited for the
            // connection's return by running the engine's loop without pause: a whole core,
            // for as long as the server stayed away (found 30 November).
            _ = try await server.loadNullSink(name: "other", properties: DaemonTests.speaker)
            try await server.crash()
            _ = try await daemon.standardError.next("the loss") { $0.hasPrefix("server: connection lost; reconnecting") }
            // Past the check's time: what follows is the wait for the server. Measuring that
            // nothing runs takes a span of time.
            try await Task.sleep(for: .milliseconds(500))
            let before = Self.processorTime(of: daemon.processIdentifier)
            try await Task.sleep(for: .seconds(1))
            let spent = Self.processorTime(of: daemon.processIdentifier) - before
            #expect(spent < .milliseconds(100), "the daemon used \(spent) of processor time in 1 s with its server gone")

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
        }
    }

    /// `routectl daemon` on a sandboxed server with one speaker, its route there, until `body` returns.
    static func withDaemonOnSpeaker(_ kind: SoundServerKind,
                                    _ body: @Sendable (SandboxServer, RunningProcess) async throws -> Void) async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DaemonTests.speaker)
            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "speakerphone", "--no-dbus",
                                                       "--server", server.socketPath])
            _ = try await daemon.standardError.next("the route on the speaker") { $0.hasPrefix("route: speaker ") }
            try await body(server, daemon)
        }
    }

    /// The processor time (user and system) `pid` has used, from `/proc/PID/stat`.
    static func processorTime(of pid: pid_t) -> Duration {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command's closing parenthesis; utime and stime are the 14th and
        // 15th of the line, the 12th and 13th after it.
        guard let close = stat.lastIndex(of: ")") else { return .zero }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return .zero }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1000 / max(ticks, 1))
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
