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

    /// The relay: forks the program on a pseudo-terminal, closes the master on SIGTERM.
    private static let relayScript = """
        import os, pty, signal, sys
        error = os.dup(2)
        pid, master = pty.fork()
        if pid == 0:
            if os.environ.pop("TERMINAL_RUN_NOHUP", None):
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.dup2(error, 2)
            os.execv(sys.argv[1], sys.argv[1:])
        os.close(error)
        def close_terminal(number, frame):
            os.close(master)
        signal.signal(signal.SIGTERM, close_terminal)
        os.write(1, b"pid %d\\n" % pid)
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            os.write(1, data)
        status = os.waitpid(pid, 0)[1]
        sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
        """

    /// Starts `program ARGUMENTS` with exactly `environment` in a terminal of its own; with
    /// `ignoringHangup`, SIGHUP ignored, as `nohup` starts it.
    init(_ program: String, _ arguments: [String], environment: [String: String], ignoringHangup: Bool = false) async throws {
        var environment = environment
        if ignoringHangup { environment["TERMINAL_RUN_NOHUP"] = "1" }
        relay = try await RunningProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", Self.relayScript, program] + arguments,
                                         environment: environment)
        let line = try await relay.standardOutput.next("the program's pid") { $0.hasPrefix("pid ") }
        guard let pid = pid_t(line.dropFirst(4)) else { throw TimedOut(what: "a pid in '\(line)'") }
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
