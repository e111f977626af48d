import Dispatch
import Foundation
import Glibc
import Synchronization

/// A process this module started, supervised by a thread of its own.
///
/// The thread spawns the child, then blocks until it exits, so that:
/// - a child started with `setpriv --pdeathsig KILL` dies when the test process dies, never
///   before (the "parent" for `PR_SET_PDEATHSIG` is the spawning *thread*);
/// - the child is reaped only under `state`'s lock after `waitid(WNOWAIT)` saw it exit, so
///   ``signal(_:)`` can never reach a recycled pid.
package final class ChildProcess: Sendable {
    /// The child's process id.
    package let pid: pid_t

    /// The command line it was started with.
    let commandLine: [String]

    private let state = Mutex(State())

    private struct State {
        var completion: Completion?
        var waiters: [UInt64: CheckedContinuation<Completion?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// How the child ended and, for a captured child, what it wrote.
    package struct Completion: Sendable {
        /// How it ended.
        package var termination: Termination
        /// Its standard output, if captured.
        var standardOutput: String
        /// Its standard error, if captured.
        var standardError: String
        /// Whether it was killed because it outlived its time limit.
        var timedOut: Bool
    }

    /// Where the child's output goes.
    package enum Output: Sendable {
        /// Standard output and standard error appended to this log file.
        case logFile(String)
        /// This process's standard input, output and error, in a process group of its own
        /// (a command run in the foreground; see ``signalGroup(_:)``).
        case inheritedInNewProcessGroup
        /// Both captured into the ``Completion``; the child is killed after `timeLimit`.
        case captured(timeLimit: Duration)
    }

    private init(pid: pid_t, commandLine: [String]) {
        self.pid = pid
        self.commandLine = commandLine
    }

    /// Starts `commandLine` (an absolute path first) with exactly `environment`.
    package static func launch(
        _ commandLine: [String],
        environment: [String: String],
        output: Output
    ) async throws(SandboxError) -> ChildProcess {
        let result: Result<ChildProcess, SandboxError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                supervise(commandLine, environment: environment, output: output) {
                    continuation.resume(returning: $0)
                }
            }
            thread.name = "SoundServerSandbox \(URL(fileURLWithPath: commandLine[0]).lastPathComponent)"
            thread.start()
        }
        return try result.get()
    }

    /// Runs `commandLine` to its end and returns what it wrote; kills it after `timeLimit`.
    static func run(
        _ commandLine: [String],
        environment: [String: String],
        timeLimit: Duration
    ) async throws(SandboxError) -> Completion {
        let child = try await launch(commandLine, environment: environment, output: .captured(timeLimit: timeLimit))
        return await child.completion(within: nil)!
    }

    /// The body of the supervising thread.
    private static func supervise(
        _ commandLine: [String],
        environment: [String: String],
        output: Output,
        started: (Result<ChildProcess, SandboxError>) -> Void
    ) {
        var pipes: (output: (read: Int32, write: Int32), error: (read: Int32, write: Int32))?
        let child: ChildProcess
        do throws(SandboxError) {
            let spawnOutput: Spawn.Output
            switch output {
            case .logFile(let path):
                spawnOutput = .appendingToFile(path)
            case .inheritedInNewProcessGroup:
                spawnOutput = .inheritedInNewProcessGroup
            case .captured:
                let standardOutput = try Pipes.make()
                let standardError: (read: Int32, write: Int32)
                do throws(SandboxError) {
                    standardError = try Pipes.make()
                } catch {
                    close(standardOutput.read)
                    close(standardOutput.write)
                    throw error
                }
                pipes = (standardOutput, standardError)
                spawnOutput = .descriptors(standardOutput: standardOutput.write, standardError: standardError.write)
            }
            defer {
                if let pipes {
                    close(pipes.output.write)
                    close(pipes.error.write)
                }
            }
            do throws(SandboxError) {
                let pid = try Spawn.spawn(commandLine, environment: environment, output: spawnOutput)
                child = ChildProcess(pid: pid, commandLine: commandLine)
            } catch {
                if let pipes {
                    close(pipes.output.read)
                    close(pipes.error.read)
                }
                throw error
            }
        } catch {
            started(.failure(error))
            return
        }
        started(.success(child))

        var drained = Pipes.Drained()
        if let pipes, case .captured(let timeLimit) = output {
            drained = Pipes.drain(pipes.output.read, pipes.error.read, deadline: .now + timeLimit) {
                _ = child.signal(SIGKILL)
            }
        }
        child.waitAndReap(drained)
    }

    /// Blocks until the child exits, reaps it and resumes everyone waiting.
    private func waitAndReap(_ drained: Pipes.Drained) {
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let (completion, waiters) = state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            let completion = Completion(
                termination: reaped == pid ? Termination(waitStatus: status) : .unknown,
                standardOutput: String(decoding: drained.first, as: UTF8.self),
                standardError: String(decoding: drained.second, as: UTF8.self),
                timedOut: drained.timedOut
            )
            state.completion = completion
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            return (completion, waiters)
        }
        for waiter in waiters { waiter.resume(returning: completion) }
    }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool {
        state.withLock { $0.completion == nil }
    }

    /// Sends signal `number` to the child, unless it has been reaped; returns whether it was sent.
    @discardableResult
    package func signal(_ number: Int32) -> Bool {
        state.withLock { state in
            guard state.completion == nil else { return false }
            return kill(pid, number) == 0
        }
    }

    /// Sends signal `number` to the child's process group (the child and what it started),
    /// for a child launched ``Output/inheritedInNewProcessGroup``, unless the child has been
    /// reaped; returns whether it was sent.
    @discardableResult
    package func signalGroup(_ number: Int32) -> Bool {
        state.withLock { state in
            guard state.completion == nil else { return false }
            return kill(-pid, number) == 0
        }
    }

    /// Blocks the calling thread until the child is stopped (after `SIGSTOP`) or has exited.
    func waitUntilStopped() {
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WSTOPPED | WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// The child's completion once it has been reaped, or `nil` if `timeLimit` passes first.
    package func completion(within timeLimit: Duration?) async -> Completion? {
        await withCheckedContinuation { continuation in
            let waiter: UInt64? = state.withLock { state in
                guard state.completion == nil else { return nil }
                let waiter = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[waiter] = continuation
                return waiter
            }
            guard let waiter else {
                continuation.resume(returning: state.withLock { $0.completion })
                return
            }
            guard let timeLimit else { return }
            let nanoseconds = Int(clamping: timeLimit.components.seconds * 1_000_000_000
                + timeLimit.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                let expired = self.state.withLock { $0.waiters.removeValue(forKey: waiter) }
                expired?.resume(returning: nil)
            }
        }
    }
}
