import Foundation
import Glibc
import PulseAudio
import SoundServerSandbox
import Synchronization

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

/// Lines a process writes on a pipe, kept as they come, that a test waits for in order: each
/// ``next(_:timeout:where:)`` looks only at lines after the one the previous wait returned.
final class LineLog: Sendable {
    private struct State {
        var lines: [String] = []
        var partial: [UInt8] = []
        var cursor = 0
        var ended = false
        /// The wait under way: for a line that `matches`, or (`untilEnd`) for the pipe's end.
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

    private let state = Mutex(State())

    /// Every complete line so far.
    var lines: [String] { state.withLock { $0.lines } }

    /// Reads `handle` to its end on a thread of its own (reads block), keeping each line; or,
    /// given `lineLimit`, closes it once that many lines have come, as `head -n` does.
    func follow(_ handle: FileHandle, lineLimit: Int? = nil) {
        let thread = Thread { [self] in
            // read(2), which returns what has come; FileHandle.read(upToCount:) waits for all of it.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while lineLimit.map({ lines.count < $0 }) ?? true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                append(Data(buffer[..<count]))
            }
            if lineLimit != nil { try? handle.close() }
            end()
        }
        thread.name = "routectl-tests line reader"
        thread.start()
    }

    /// The next line that matches, waiting for it as long as `timeout` at most.
    func next(_ what: String, timeout: Duration = .seconds(20),
              where matches: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await wait(what, timeout: timeout, untilEnd: false, where: matches)
    }

    /// Every line, once the process has closed the pipe (it exited), waiting as long as
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
                    return .failure(TimedOut(what: "\(what) (the process closed the pipe)", written: state.lines))
                }
                state.waiter = (id, matches, untilEnd, continuation)
                return nil
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    private func append(_ data: Data) {
        let resumed: (CheckedContinuation<String, any Error>, String)? = state.withLock { state in
            state.partial.append(contentsOf: data)
            while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(String(decoding: state.partial[..<newline], as: UTF8.self))
                state.partial.removeSubrange(...newline)
            }
            guard let waiter = state.waiter, let line = state.take(waiter.matches) else { return nil }
            state.waiter = nil
            return (waiter.continuation, line)
        }
        if let (continuation, line) = resumed { continuation.resume(returning: line) }
    }

    private func end() {
        let resumed: (CheckedContinuation<String, any Error>, Result<String, any Error>)? = state.withLock { state in
            if !state.partial.isEmpty {
                state.lines.append(String(decoding: state.partial, as: UTF8.self))
                state.partial.removeAll()
            }
            state.ended = true
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            if waiter.untilEnd { return (waiter.continuation, .success("")) }
            if let line = state.take(waiter.matches) { return (waiter.continuation, .success(line)) }
            return (waiter.continuation, .failure(TimedOut(what: "a line (the process closed the pipe)", written: state.lines)))
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

/// A process's exit status, once it has one, awaited with a time limit.
final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiter: CheckedContinuation<Int32, any Error>?
        var expired = false
    }

    private let state = Mutex(State())

    /// Records the status and wakes the waiter.
    func exited(_ status: Int32) {
        let waiter = state.withLock { state in
            state.status = status
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: status)
    }

    /// The status; throws ``TimedOut`` carrying `written()` after `timeout`.
    func status(timeout: Duration, written: @escaping @Sendable () -> [String]) async throws -> Int32 {
        state.withLock { $0.expired = false }
        let timer = Task { [self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            let waiter = state.withLock { state in
                state.expired = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: TimedOut(what: "routectl to exit", written: written()))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let settled: Result<Int32, any Error>? = state.withLock { state in
                if let status = state.status { return .success(status) }
                if state.expired { return .failure(TimedOut(what: "routectl to exit", written: written())) }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}

/// A built executable running in the background, as a daemon runs: its standard error and
/// output followed line by line, its exit awaited with a time limit. Killed (by its pid) if
/// the test ends without waiting for it.
final class RunningProcess {
    /// What it writes on standard error.
    let standardError = LineLog()
    /// What it writes on standard output.
    let standardOutput = LineLog()
    private let process = Process()
    private let exit = ExitWatch()

    /// Starts `executable` with `arguments`, in this process's environment without the
    /// variables that could lead it to another sound server than the one its arguments name,
    /// or to the user's session bus (a daemon would serve its D-Bus API there, and the next
    /// test's daemon would find the name taken).
    /// Given `standardErrorLineLimit`, the test stops reading standard error after that many
    /// lines and closes it, as `routectl daemon 2>&1 | head -1` does.
    convenience init(_ executable: Executable, _ arguments: [String], standardErrorLineLimit: Int? = nil) throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["PULSE_SERVER", "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            environment[name] = nil
        }
        try self.init(executable.url, arguments, environment: environment, standardErrorLineLimit: standardErrorLineLimit)
    }

    /// Starts the program at `url` with `arguments` and exactly `environment`.
    init(_ url: URL, _ arguments: [String], environment: [String: String], standardErrorLineLimit: Int? = nil) throws {
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let errorPipe = Pipe(), outputPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = outputPipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exit] process in
            // A signal's number comes as 128 + signal, as a shell reports it.
            exit.exited(process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
        }
        try process.run()
        standardError.follow(errorPipe.fileHandleForReading, lineLimit: standardErrorLineLimit)
        standardOutput.follow(outputPipe.fileHandleForReading)
    }

    /// The process's pid.
    var processIdentifier: pid_t { process.processIdentifier }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Its exit status, once it has exited (128 + n after signal n); throws ``TimedOut``
    /// (with what it wrote on standard error) if it has not exited within `timeout`.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        try await exit.status(timeout: timeout) { [standardError] in standardError.lines }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
