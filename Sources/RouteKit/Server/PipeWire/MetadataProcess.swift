import Foundation
import Glibc
import Synchronization


/// One run of a short-lived program, with its output captured and a time limit, supervised
/// by a thread of its own that spawns it, drains its pipes, and reaps it. The child is reaped
/// only under the lock after `waitid(WNOWAIT)` saw it exit, so a kill (timeout or
/// cancellation) can never reach a recycled pid.
final class MetadataProcess: Sendable {
    enum Termination: Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Something else reaped the child.
        case unknown
    }

    struct Completion: Sendable {
        var termination: Termination
        var standardOutput: String
        var standardError: String
        var timedOut: Bool
    }

    private struct State {
        var pid: pid_t?
        var reaped = false
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Runs `commandLine` (an absolute path first) with exactly `environment`; kills it when
    /// `timeout` passes or the calling task is cancelled.
    static func run(_ commandLine: [String], environment: [String: String],
                    timeout: Duration) async throws(PipeWireConfiguredDefaults.Failure) -> Completion {
        let process = MetadataProcess()
        let result: Result<Completion, PipeWireConfiguredDefaults.Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: process.supervise(commandLine, environment: environment,
                                                                     deadline: .now + timeout))
                }
                thread.name = "RouteKit pw-metadata"
                thread.start()
            }
        } onCancel: {
            process.cancel()
        }
        return try result.get()
    }

    /// Kills the child unless it has been reaped, and keeps it from starting if it has not.
    private func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let pid = state.pid, !state.reaped { _ = Glibc.kill(pid, SIGKILL) }
        }
    }

    private func signalIfRunning(_ signal: Int32) {
        state.withLock { state in
            if let pid = state.pid, !state.reaped { _ = Glibc.kill(pid, signal) }
        }
    }

    /// The body of the supervising thread: blocks until the child has been reaped.
    private func supervise(_ commandLine: [String], environment: [String: String],
                           deadline: ContinuousClock.Instant) -> Result<Completion, PipeWireConfiguredDefaults.Failure> {
        let output: (read: Int32, write: Int32), error: (read: Int32, write: Int32)
        do throws(PipeWireConfiguredDefaults.Failure) {
            output = try Self.makePipe(for: commandLine[0])
            do throws(PipeWireConfiguredDefaults.Failure) {
                error = try Self.makePipe(for: commandLine[0])
            } catch {
                close(output.read)
                close(output.write)
                throw error
            }
        } catch {
            return .failure(error)
        }
        let spawned: Result<pid_t, PipeWireConfiguredDefaults.Failure> = state.withLock { state in
            if state.cancelled { return .failure(.killed(signal: SIGKILL, standardError: "")) }
            let result = Self.spawn(commandLine, environment: environment, output: output.write, error: error.write)
            if case .success(let pid) = result { state.pid = pid }
            return result
        }
        close(output.write)
        close(error.write)
        guard case .success(let pid) = spawned else {
            close(output.read)
            close(error.read)
            if case .failure(let failure) = spawned { return .failure(failure) }
            return .failure(.launchFailed(path: commandLine[0], reason: "unknown"))
        }

        let drained = Self.drain(output.read, error.read, deadline: deadline) { signalIfRunning(SIGKILL) }
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let status: Int32? = state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            state.reaped = true
            return reaped == pid ? status : nil
        }
        // WIFEXITED and friends are C macros that Swift cannot import.
        let termination: Termination = status.map { $0 & 0x7F == 0 ? .exited(($0 >> 8) & 0xFF) : .signaled($0 & 0x7F) } ?? .unknown
        return .success(Completion(termination: termination,
                                   standardOutput: String(decoding: drained.output, as: UTF8.self),
                                   standardError: String(decoding: drained.error, as: UTF8.self),
                                   timedOut: drained.timedOut))
    }

    /// A pipe whose ends are closed on `exec`, so that no other child inherits them.
    private static func makePipe(for path: String) throws(PipeWireConfiguredDefaults.Failure) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        // `pipe2` sets close-on-exec atomically; Swift's Glibc module omits it, so look it up.
        if let symbol = dlsym(nil, "pipe2") {
            let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
            guard pipe2(&descriptors, O_CLOEXEC) == 0 else {
                throw .launchFailed(path: path, reason: "no pipe: \(String(cString: strerror(errno)))")
            }
        } else {
            guard pipe(&descriptors) == 0 else {
                throw .launchFailed(path: path, reason: "no pipe: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Starts the child with `/dev/null` as standard input, default signal dispositions, an
    /// empty signal mask, and no descriptor above 2 (where glibc can close them).
    private static func spawn(_ commandLine: [String], environment: [String: String],
                              output: Int32, error: Int32) -> Result<pid_t, PipeWireConfiguredDefaults.Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number: Int32 in 1..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = commandLine.map { strdup($0) } + [nil]
        let variables = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, commandLine[0], &actions, &attributes, arguments, variables)
        guard result == 0 else {
            return .failure(.launchFailed(path: commandLine[0], reason: String(cString: strerror(result))))
        }
        return .success(pid)
    }

    /// Reads both pipes until both end, then closes them. When `deadline` passes first, calls
    /// `expire` (which kills the child) and reads for at most two more seconds.
    private static func drain(_ output: Int32, _ error: Int32, deadline: ContinuousClock.Instant,
                              expire: () -> Void) -> (output: [UInt8], error: [UInt8], timedOut: Bool) {
        var collected: ([UInt8], [UInt8]) = ([], [])
        var timedOut = false
        var polled = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: error, events: Int16(POLLIN), revents: 0)]
        var limit = deadline
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while polled.contains(where: { $0.fd >= 0 }) {
            let remaining = limit - ContinuousClock.now
            if remaining <= .zero {
                if timedOut { break }
                timedOut = true
                expire()
                limit = ContinuousClock.now + .seconds(2)
                continue
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000
                + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&polled, nfds_t(polled.count), milliseconds)
            if ready < 0 && errno != EINTR { break }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 { collected.0.append(contentsOf: buffer[..<count]) }
                    else { collected.1.append(contentsOf: buffer[..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(polled[index].fd)
                    polled[index].fd = -1
                }
            }
        }
        for entry in polled where entry.fd >= 0 { close(entry.fd) }
        return (collected.0, collected.1, timedOut)
    }
}
