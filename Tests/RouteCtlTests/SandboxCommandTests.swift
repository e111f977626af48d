import Foundation
import Glibc
import Testing

/// `routekit-sandbox` run as a user runs it: its command can be stopped, and stopping the
/// sandbox stops the command, the servers and removes the temporary directory.
@Suite("routekit-sandbox")
struct SandboxCommandTests {
    /// A sandbox running a command, as the test found it once the command was up.
    private struct Started {
        let sandbox: RunningProcess
        let command: pid_t
        let servers: [pid_t]
        let directory: String
    }

    /// Who is sent the signal.
    enum Target: String, CaseIterable, Sendable {
        /// `kill <pid of the command>`, as a user stops a pacat started in the sandbox.
        case command
        /// SIGTERM to routekit-sandbox.
        case sandboxTerminated
        /// SIGINT to routekit-sandbox.
        case sandboxInterrupted
    }

    @Test("the command can be signalled, and a signal to the sandbox stops everything it started",
          arguments: Target.allCases)
    func signals(target: Target) async throws {
        let started = try await start(["pacat", "--verbose", "--raw", "/dev/zero"], readyLine: "Stream successfully created.")
        let blocked = try signalSet(of: started.command, "SigBlk")
        let ignored = try signalSet(of: started.command, "SigIgn")
        #expect(blocked & Self.stopSignals == 0, "the command starts with SIGINT or SIGTERM blocked")
        #expect(ignored & Self.stopSignals == 0, "the command starts with SIGINT or SIGTERM ignored")
        switch target {
        case .command: kill(started.command, SIGTERM)
        case .sandboxTerminated: started.sandbox.send(SIGTERM)
        case .sandboxInterrupted: started.sandbox.send(SIGINT)
        }
        // pacat ends with status 0 on SIGTERM and SIGINT; the sandbox exits with its status.
        #expect(try await started.sandbox.exitStatus(timeout: .seconds(15)) == 0, "\(started.sandbox.standardError.lines)")
        try expectCleanedUp(started)
    }

    @Test("a command that ignores the signal is killed after the grace period, and everything is cleaned up")
    func commandIgnoringSignals() async throws {
        // No exec after the ready line: /proc shows a process's environment only once an exec
        // under way is done, and the test reads it as soon as the line comes (a full run once
        // found no command). The sandbox kills the command's whole group, sleep included.
        let started = try await start(["sh", "-c", "trap '' TERM INT; echo ready >&2; while :; do sleep 1; done"], readyLine: "ready")
        started.sandbox.send(SIGTERM)
        // 5 s of grace, then SIGKILL: the sandbox exits as its command did, 128 + 9.
        #expect(try await started.sandbox.exitStatus(timeout: .seconds(20)) == 128 + SIGKILL)
        try expectCleanedUp(started)
    }

    /// SIGINT and SIGTERM as bits of a /proc signal set.
    private static let stopSignals: UInt64 = (1 << UInt64(SIGINT - 1)) | (1 << UInt64(SIGTERM - 1))

    /// Starts routekit-sandbox (PulseAudio, demo devices) running `command`, and waits for
    /// `readyLine` on its standard error, which the command shares. The command is the
    /// sandbox's child that is not `pulseaudio`.
    private func start(_ command: [String], readyLine: String) async throws -> Started {
        let sandbox = try await RunningProcess(try Executable.built("routekit-sandbox"),
                                         ["--server", "pulseaudio", "--devices", "demo", "--"] + command)
        do {
            _ = try await sandbox.standardError.next("the command to be up") { $0.hasSuffix(readyLine) }
            return try found(in: sandbox)
        } catch {
            // Stopped as a user would, so that the servers and the command go too.
            sandbox.send(SIGTERM)
            _ = try? await sandbox.exitStatus()
            throw error
        }
    }

    /// The command, servers and directory of `sandbox`, found through /proc.
    private func found(in sandbox: RunningProcess) throws -> Started {
        let children = try childProcesses(of: sandbox.processIdentifier)
        let servers = children.filter { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "pulseaudio\n" }
        // The command is the child given the sandbox's server (the sandbox may have a short-lived
        // helper of its own running beside it at this moment).
        let environments = children.filter { !servers.contains($0) }.compactMap { pid -> (Int32, [Substring])? in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8) else { return nil }
            return (pid, text.split(separator: "\0"))
        }
        let (commandPID, environment) = try #require(environments.first { $0.1.contains { $0.hasPrefix("PULSE_SERVER=unix:") } },
                                                     "\(children)")
        let server = try #require(environment.first { $0.hasPrefix("PULSE_SERVER=unix:") })
        let socket = URL(fileURLWithPath: String(server.dropFirst("PULSE_SERVER=unix:".count)))
        let directory = socket.deletingLastPathComponent().path
        #expect(directory.contains("routekit-sandbox-"), "\(directory)")
        return Started(sandbox: sandbox, command: commandPID, servers: servers, directory: directory)
    }

    /// The command, the servers and the directory are gone. Kills (by pid) whatever the
    /// sandbox left running, so that a failing test leaves nothing behind.
    private func expectCleanedUp(_ started: Started) throws {
        for pid in [started.command] + started.servers where kill(pid, 0) == 0 {
            Issue.record("process \(pid) outlived the sandbox")
            kill(pid, SIGKILL)
        }
        #expect(!started.servers.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: started.directory), "\(started.directory) was left")
        if FileManager.default.fileExists(atPath: started.directory) {
            try? FileManager.default.removeItem(atPath: started.directory)
        }
    }

    /// The children of process `pid`, from /proc.
    /// Every process whose parent is `pid`, read from each process's `stat` (a thread's own
    /// `children` list misses the children of a thread that has ended since it forked them).
    private func childProcesses(of pid: pid_t) throws -> [pid_t] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // pid (comm) state ppid ...: the command name may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// A signal set (`SigBlk`, `SigIgn`) of process `pid`, from /proc.
    private func signalSet(of pid: pid_t, _ field: String) throws -> UInt64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16))
    }
}
