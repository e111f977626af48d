import BenchmarkSupport
import Foundation
import SoundServerSandbox
import Synchronization

/// What a process costs while nothing happens, read from /proc for all its threads:
/// context switches (every wake-up is one), CPU time, and resident memory.
struct ProcessCost {
    /// Voluntary and involuntary context switches so far, by thread id.
    var switchesByThread: [String: Int]
    /// User plus system CPU time so far, in clock ticks.
    var cpuTicks: Int
    /// Resident memory now, in kB.
    var residentKB: Int

    /// The figures of `pid` now; nil when it is gone.
    static func of(_ pid: Int32) -> ProcessCost? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var switches: [String: Int] = [:]
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") {
                if line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    switches[task, default: 0] += Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
                }
            }
        }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let cpu = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) } ?? 0
        return ProcessCost(switchesByThread: switches, cpuTicks: cpu, residentKB: rss)
    }

    /// The wake-ups since `earlier`: the switches of the threads alive at both readings and of
    /// the threads started since, and the threads that ended since (each woke at least once,
    /// to end; what else they did is gone with them).
    func wakeUps(since earlier: ProcessCost) -> (counted: Int, threadsEnded: Int) {
        var counted = 0
        for (thread, now) in switchesByThread { counted += now - (earlier.switchesByThread[thread] ?? 0) }
        let ended = earlier.switchesByThread.keys.filter { switchesByThread[$0] == nil }.count
        return (counted, ended)
    }

    /// The command name of `pid` (`/proc/PID/comm`).
    static func name(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Idle wake-ups over a long quiet spell: `routectl daemon` running on the sandbox (its own
/// process, as users run it) beside the baselines that are running there too (WirePlumber
/// on PipeWire; the server itself).
enum IdleWakeups {
    /// Runs the daemon, waits until it has started and settled, then measures `seconds` of
    /// nothing. Returns the report lines.
    static func measure(_ bench: Bench, seconds: Int) async throws -> [String] {
        let routectl = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("routectl").path
        guard FileManager.default.isExecutableFile(atPath: routectl) else {
            return ["idle wake-ups: skipped: \(routectl) is not built (swift build -c release --product routectl)"]
        }
        let started = OneShotLine()
        var environment = bench.server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let daemon = try await LineEmittingProcess(executable: routectl,
                                                   arguments: ["daemon", "--prefer", "bluetooth", "--prefer", "speakerphone"],
                                                   environment: environment) { _, line in
            if line.hasPrefix("daemon: running") { started.fire() }
        }
        do {
            let lines = try await measure(bench, seconds: seconds, daemon: daemon, started: started)
            await daemon.stop()
            return lines
        } catch {
            await daemon.stop()
            throw error
        }
    }

    /// The measurement itself, once the daemon runs (it stops it not).
    private static func measure(_ bench: Bench, seconds: Int, daemon: LineEmittingProcess,
                                started: OneShotLine) async throws -> [String] {
        guard await started.wait(within: .seconds(10)) else { return ["idle wake-ups: the daemon did not start within 10 s"] }
        try await bench.fence()
        try await Task.sleep(for: .seconds(2))
        var watched: [(String, Int32)] = [("routectl daemon", daemon.processID)]
        for pid in bench.server.processIDs {
            if let name = ProcessCost.name(of: pid) { watched.append((name, pid)) }
        }
        let before = watched.map { ProcessCost.of($0.1) }
        try await Task.sleep(for: .seconds(seconds))
        let after = watched.map { ProcessCost.of($0.1) }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var lines = ["idle for \(seconds) s, per process (context switches = wake-ups; CPU; resident memory):"]
        for ((name, _), (start, end)) in zip(watched, zip(before, after)) {
            guard let start, let end else { continue }
            let cpu = Double(end.cpuTicks - start.cpuTicks) / ticks * 1000
            let wakeUps = end.wakeUps(since: start)
            let ended = wakeUps.threadsEnded == 0 ? ""
                : " (and \(wakeUps.threadsEnded) thread\(wakeUps.threadsEnded == 1 ? "" : "s") ended, at least one wake-up each)"
            lines.append("  \(name): \(wakeUps.counted) wake-ups\(ended), \(format(cpu)) ms CPU, "
                         + "\(end.residentKB / 1024) MB resident")
        }
        return lines
    }
}

/// A line seen once, awaited with a bound.
private final class OneShotLine: Sendable {
    private let seen = Mutex(false)

    func fire() { seen.withLock { $0 = true } }

    /// Polls every 10 ms (setup only, never in a measurement) until fired or the bound passes.
    func wait(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if seen.withLock({ $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
