import Foundation
import Glibc

/// A program run in a terminal of its own, as a user runs `routectl volume-keys` in a terminal
/// window: a pseudo-terminal whose slave is the program's controlling terminal, standard input
/// and standard output (python3's `pty.fork`, which makes the program a session leader), and
/// whose master a relay (python3) holds, copying what the terminal shows to its own standard
/// output. The program's standard error is a pipe to the test, so that it outlives the
/// terminal. Closing the master, as a terminal window closes, makes the kernel hang the
/// terminal up: SIGHUP to the program, EIO on its terminal.
final class TerminalRun: Sendable {
    /// The relay: its standard output is the terminal's (after a first line `pid N`); its
    /// standard error is the program's; it exits with the program's status (128 + n after
    /// signal n) once the program has exited.
    let relay: RunningProcess
    /// The program's pid.
    let programID: pid_t

    /// How the program runs in its terminal.
    enum Job: String {
        /// As a shell's foreground job: the terminal's session leader (SIGHUP when it closes).
        case foreground
        /// As `nohup` starts it: SIGHUP ignored.
        case ignoringHangup
        /// As `program &` from a shell that exits without passing SIGHUP on (bash's default
        /// on `exit`): a process group of its own in the terminal's session, under a parent
        /// that ignores SIGHUP once it has started it; the kernel signals none of them when
        /// the terminal closes, the terminal just hangs up.
        case background
    }

    /// The relay: forks the program on a pseudo-terminal (through an intermediate parent for a
    /// background job, which prints the program's pid on the terminal and exits with its
    /// status), closes the master on SIGTERM. Each process it forks is killed when its parent
    /// dies, so that a test that fails (the relay killed by pid) leaves nothing running.
    private static let relayScript = """
        import ctypes, os, pty, signal, sys
        job = os.environ.pop("TERMINAL_RUN_JOB")
        error = os.dup(2)

        def die_with_parent():
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the test's end kills all

        def status_of(pid):
            status = os.waitpid(pid, 0)[1]
            return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)

        def run_program():
            die_with_parent()
            if job == "ignoringHangup":
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.dup2(error, 2)
            os.execv(sys.argv[1], sys.argv[1:])

        pid, master = pty.fork()
        if pid == 0:
            if job != "background":
                run_program()
            die_with_parent()
            program = os.fork()
            if program == 0:
                os.setpgid(0, 0)
                run_program()
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.write(1, b"pid %d\\n" % program)
            os._exit(status_of(program))
        os.close(error)
        def close_terminal(number, frame):
            os.close(master)
        signal.signal(signal.SIGTERM, close_terminal)
        if job != "background":
            os.write(1, b"pid %d\\n" % pid)
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            os.write(1, data)
        sys.exit(status_of(pid))
        """

    /// Starts `program ARGUMENTS` with exactly `environment` in a terminal of its own, as `job`.
    init(_ program: String, _ arguments: [String], environment: [String: String], job: Job = .foreground) async throws {
        var environment = environment
        environment["TERMINAL_RUN_JOB"] = job.rawValue
        relay = try await RunningProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", Self.relayScript, program] + arguments,
                                         environment: environment)
        let line = try await relay.standardOutput.next("the program's pid") { $0.hasPrefix("pid ") }
        guard let pid = pid_t(line.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TimedOut(what: "a pid in '\(line)'")
        }
        programID = pid
    }

    /// What the terminal showed, line by line (without the terminal's carriage returns).
    func nextShown(_ what: String) async throws -> String {
        try await relay.standardOutput.next(what) { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Closes the terminal, as closing its window does: the relay closes the master.
    func close() {
        relay.send(SIGTERM)
    }

    /// Sends SIGHUP to the program itself, as a shell does to its jobs when its terminal goes.
    func hangUp() {
        kill(programID, SIGHUP)
    }
}
