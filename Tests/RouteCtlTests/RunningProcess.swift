import ConcurrencySupport
import Foundation
import Glibc
import ProcessRunner

/// A test waited longer than it should have: something hung. Says what it waited for and
/// what the process had written by then.
struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var written: [String] = []
    var description: String {
        "timed out waiting for \(what)" + (written.isEmpty ? "" : "; standard error so far:\n" + written.joined(separator: "\n"))
    }
}

/// Runs `body`, failing with ``TimedOut`` if it has not finished within `timeout`: a guard
/// against hangs, never a way to wait for something to happen.
func withTimeout<Result: Sendable>(_ what: String, _ timeout: Duration = .seconds(20),
                                   _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Result.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut(what: what)
        }
        defer { group.cancelAll() }
        guard let result = try await group.next() else { throw TimedOut(what: what) }
        return result
    }
}

/// Lines a process writes, kept as they come, that a test waits for in order: each
/// ``next(_:timeout:where:)`` looks only at lines after the one the previous wait returned.
final class LineLog: Sendable {
    private struct State {
        var lines: [String] = []
        var cursor = 0
        var ended = false
        /// The wait under way: for a line that `matches`, or (`untilEnd`) for the output's end.
        var waiter: (id: Int, matches: @Sendable (String) -> Bool, untilEnd: Bool,
                     continuation: CheckedContinuation<String, any Error>)?
        var expired: Set<Int> = []
        var nextID = 0

        /// The first line from the cursor on that matches, consumed.
        mutating func take(_ matches: (String) -> Bool) -> String? {
            guard let index = lines[cursor...].firstIndex(where: matches) else { return nil }
            cursor = index + 1
            return lines[index]
        }
    }

    private let state = LockedValue(State())

    /// The next lines that match each of `predicates`, in whatever order they come (lines
    /// two tasks of the process write, such as a route change and the report of what caused
    /// it), returned in the order of `predicates`.
    func nextInAnyOrder(_ what: String, timeout: Duration = .seconds(20),
                        _ predicates: [@Sendable (String) -> Bool]) async throws -> [String] {
        var found = [String?](repeating: nil, count: predicates.count)
        while let _ = found.firstIndex(of: nil) {
            let waiting = found.indices.filter { found[$0] == nil }
            let line = try await next(what, timeout: timeout) { line in waiting.contains { predicates[$0](line) } }
            if let index = waiting.first(where: { predicates[$0](line) }) { found[index] = line }
        }
        return found.compactMap { $0 }
    }

    /// Every complete line so far.
    var lines: [String] { state.withLock { $0.lines } }

    /// Where the process runner delivers a process's lines to this log.
    var output: ChildProcess.Output {
        .lines(onLine: { [self] _, line in append(line) }, onEnd: { [self] in end() })
    }

    /// The next line that matches, waiting for it as long as `timeout` at most.
    func next(_ what: String, timeout: Duration = .seconds(20),
              where matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await wait(what, timeout: timeout, untilEnd: false, where: matches)
    }

    /// Every line, once the output has ended (the process exited), waiting as long as
    /// `timeout` at most.
    func all(timeout: Duration = .seconds(20)) async throws -> [String] {
        _ = try await wait("the end of the output", timeout: timeout, untilEnd: true) { _ in false }
        return lines
    }

    private func wait(_ what: String, timeout: Duration, untilEnd: Bool,
                      where matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            expire(id, what)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let settled: Result<String, any Error>? = state.withLock { state in
                if state.expired.contains(id) { return .failure(TimedOut(what: what, written: state.lines)) }
                if let line = state.take(matches) { return .success(line) }
                if state.ended {
                    if untilEnd { return .success("") }
                    return .failure(TimedOut(what: "\(what) (the output ended)", written: state.lines))
                }
                state.waiter = (id, matches, untilEnd, continuation)
                return nil
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    private func append(_ line: String) {
        let resumed: (CheckedContinuation<String, any Error>, String)? = state.withLock { state in
            state.lines.append(line)
            guard let waiter = state.waiter, let line = state.take(waiter.matches) else { return nil }
            state.waiter = nil
            return (waiter.continuation, line)
        }
        if let (continuation, line) = resumed { continuation.resume(returning: line) }
    }

    private func end() {
        let resumed: (CheckedContinuation<String, any Error>, Result<String, any Error>)? = state.withLock { state in
            state.ended = true
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            if waiter.untilEnd { return (waiter.continuation, .success("")) }
            if let line = state.take(waiter.matches) { return (waiter.continuation, .success(line)) }
            return (waiter.continuation, .failure(TimedOut(what: "a line (the output ended)", written: state.lines)))
        }
        if let (continuation, result) = resumed { continuation.resume(with: result) }
    }

    private func expire(_ id: Int, _ what: String) {
        let resumed: (CheckedContinuation<String, any Error>, [String])? = state.withLock { state in
            state.expired.insert(id)
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return (waiter.continuation, state.lines)
        }
        if let (continuation, lines) = resumed { continuation.resume(throwing: TimedOut(what: what, written: lines)) }
    }
}

/// A built executable running in the background, as a daemon runs: its standard error and
/// output followed line by line, its exit awaited with a time limit. Started and stopped
/// through the package's process runner, by its own pid only; killed if the test ends
/// without waiting for it.
final class RunningProcess: Sendable {
    /// What it writes on standard error.
    let standardError = LineLog()
    /// What it writes on standard output.
    let standardOutput = LineLog()
    private let process: ChildProcess
    /// `head -n N` reading standard error, when the test reads only N lines of it.
    private let head: ChildProcess?

    /// Starts `executable` with `arguments`, in this process's environment without the
    /// variables that could lead it to another sound server than the one its arguments name,
    /// or to the user's session bus (a daemon would serve its D-Bus API there, and the next
    /// test's daemon would find the name taken).
    /// Given `standardErrorLineLimit`, standard error goes through `head -n` that many lines,
    /// which then exits and closes the pipe, as in `routectl daemon 2>&1 | head -1`.
    convenience init(_ executable: Executable, _ arguments: [String], standardErrorLineLimit: Int? = nil) async throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["PULSE_SERVER", "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            environment[name] = nil
        }
        try await self.init(executable.url, arguments, environment: environment, standardErrorLineLimit: standardErrorLineLimit)
    }

    /// Starts the program at `url` with `arguments` and exactly `environment`. Given
    /// `standardErrorTo`, standard error goes there instead of ``standardError`` (a pipe the
    /// test never reads, say).
    init(_ url: URL, _ arguments: [String], environment: [String: String], standardErrorLineLimit: Int? = nil,
         standardErrorTo: ChildProcess.Output? = nil) async throws {
        let path = url.path
        guard let limit = standardErrorLineLimit else {
            process = try await ChildProcess.launch([path] + arguments, environment: environment,
                                                    output: standardOutput.output,
                                                    error: .separately(standardErrorTo ?? standardError.output))
            head = nil
            return
        }
        let (headInput, errorOutput) = try ChildProcess.pipe()
        process = try await ChildProcess.launch([path] + arguments, environment: environment,
                                                output: standardOutput.output, error: .separately(errorOutput))
        do {
            head = try await ChildProcess.launch(["/usr/bin/head", "-n", String(limit)], environment: environment,
                                                 input: headInput, output: standardError.output,
                                                 error: .separately(.inherited))
        } catch {
            process.signal(SIGKILL)
            throw error
        }
    }

    /// The process's pid.
    var processIdentifier: pid_t { process.pid }

    /// Sends `signal` to the process, unless it has exited.
    func send(_ signal: Int32) {
        process.signal(signal)
    }

    /// Its exit status, once it has exited (128 + n after signal n); throws ``TimedOut``
    /// (with what it wrote on standard error) if it has not exited within `timeout`.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        guard let termination = await process.completion(within: timeout) else {
            throw TimedOut(what: "the process to exit", written: standardError.lines)
        }
        return termination.shellStatus
    }

    deinit {
        process.signal(SIGKILL)
        head?.signal(SIGKILL)
    }
}
