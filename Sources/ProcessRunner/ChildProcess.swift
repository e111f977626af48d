import ConcurrencySupport
import Dispatch
import Glibc
import SystemPackage

/// A process started by ``launch(_:environment:input:output:error:newProcessGroup:)``,
/// running on its own until it ends, signalled only by its own pid.
///
/// swift-subprocess starts it (with an empty signal mask, default signal dispositions and no
/// descriptor above 2) and reaps it. A signal reaches the child only while swift-subprocess
/// has not reaped it, so never a recycled pid: ``signal(_:)`` goes through the child's pidfd
/// while the supervising task still holds it, and refuses once the child has exited.
///
/// Children are spawned from swift-subprocess's one worker thread, which lives as long as
/// this process: a child started with `setpriv --pdeathsig KILL` dies with this process, and
/// never before (the "parent" of `PR_SET_PDEATHSIG` is the spawning thread).
package final class ChildProcess: Sendable {
    /// The child's process id.
    package let pid: Int32

    /// The command line it was started with.
    package let commandLine: [String]

    private let state: LockedValue<State>

    private struct State {
        /// Sends a signal (to the group, if asked) while the child has not exited; nil after.
        var signaller: Signaller?
        /// The write end of a ``Input/heldOpen`` standard input, until closed.
        var standardInput: FileDescriptor?
        var termination: Termination?
        var waiters: [UInt64: CheckedContinuation<Termination?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// Sends signal `number` to the child, or to its process group; returns whether it was sent.
    typealias Signaller = @Sendable (_ number: Int32, _ toProcessGroup: Bool) -> Bool

    /// A child that has just been spawned as `pid`, signalled through `signaller` until it
    /// exits; `standardInput` is the write end of its held-open standard input, if any.
    init(pid: Int32, commandLine: [String], signaller: @escaping Signaller, standardInput: FileDescriptor?) {
        self.pid = pid
        self.commandLine = commandLine
        state = LockedValue(State(signaller: signaller, standardInput: standardInput))
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool {
        state.withLock { $0.signaller != nil }
    }

    /// Sends signal `number` to the child, unless it has exited; returns whether it was sent.
    @discardableResult
    package func signal(_ number: Int32) -> Bool {
        state.withLock { $0.signaller?(number, false) ?? false }
    }

    /// Sends signal `number` to the child's process group (the child and what it started),
    /// for a child launched with `newProcessGroup`, unless the child has exited (a group's id
    /// is its leader's pid, which stays taken until the leader is reaped); returns whether it
    /// was sent.
    @discardableResult
    package func signalGroup(_ number: Int32) -> Bool {
        state.withLock { $0.signaller?(number, true) ?? false }
    }

    /// Closes the child's standard input (a ``Input/heldOpen`` pipe): it reads end of file.
    package func closeStandardInput() {
        let input = state.withLock { state in
            defer { state.standardInput = nil }
            return state.standardInput
        }
        try? input?.close()
    }

    /// Blocks the calling thread until the child is stopped (after `SIGSTOP`) or has exited.
    /// (`WNOWAIT`: it reaps nothing; an already reaped child returns at once with `ECHILD`.)
    package func waitUntilStopped() {
        guard isRunning else { return }
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WSTOPPED | WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    }

    /// How the child ended, once it has been reaped, or `nil` if `timeLimit` passes first.
    package func completion(within timeLimit: Duration?) async -> Termination? {
        await withCheckedContinuation { continuation in
            let waiter: UInt64? = state.withLock { state in
                guard state.termination == nil else { return nil }
                let waiter = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[waiter] = continuation
                return waiter
            }
            guard let waiter else {
                continuation.resume(returning: state.withLock { $0.termination })
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

    /// The child has exited: no signal may reach its pid from now on. Called by the
    /// supervising task before it lets swift-subprocess reap the child.
    func exited() {
        state.withLock { $0.signaller = nil }
    }

    /// The child has been reaped: records how it ended and wakes everyone waiting.
    func reaped(_ termination: Termination) {
        let (waiters, input) = state.withLock { state in
            state.signaller = nil
            state.termination = termination
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            defer { state.standardInput = nil }
            return (waiters, state.standardInput)
        }
        try? input?.close()
        for waiter in waiters { waiter.resume(returning: termination) }
    }
}
