import Glibc
import ProcessRunner
import SoundServerSandbox
import UnixSignals

/// The command `routekit-sandbox` runs, as a shell runs a foreground job: started with a clean
/// signal mask and default dispositions (Swift's executor threads block `SIGINT` and `SIGTERM`,
/// and a child inherits its spawning thread's mask), in a process group of its own that gets
/// the terminal, and sent every `SIGTERM`, `SIGINT` or `SIGHUP` the sandbox receives.
enum ForegroundCommand {
    /// How long the command may take to end after a forwarded signal before its process group
    /// is killed, so that the sandbox always gets to stop its servers.
    static let stopGracePeriod = Duration.seconds(5)

    /// Runs `arguments` (looked up in `PATH`) with `environment`, forwarding `signals` to its
    /// process group, and returns its exit status: 128 + n if signal n ended it.
    static func run(_ arguments: [String], environment: [String: String], forwarding signals: UnixSignalsSequence) async throws -> Int32 {
        let command = try await ChildProcess.launch(["/usr/bin/env"] + arguments, environment: environment,
                                                    input: .inherited, output: .inherited, error: .separately(.inherited),
                                                    newProcessGroup: true)
        let terminal = ForegroundTerminal.handOver(to: command)
        defer { terminal?.takeBack() }
        let termination = await withTaskGroup(of: Void.self) { group in
            group.addTask { await forward(signals, to: command) }
            let termination = await command.completion(within: nil)
            group.cancelAll()
            return termination
        }
        return termination?.shellStatus ?? 1
    }

    /// Sends each signal to the command's process group; kills the group if it has not ended
    /// within ``stopGracePeriod`` of the first. Ends when cancelled.
    private static func forward(_ signals: UnixSignalsSequence, to command: ChildProcess) async {
        await withTaskGroup(of: Void.self) { group in
            var deadlineSet = false
            for await signal in signals {
                command.signalGroup(signal.rawValue)
                guard !deadlineSet else { continue }
                deadlineSet = true
                group.addTask {
                    if await command.completion(within: stopGracePeriod) == nil {
                        command.signalGroup(SIGKILL)
                    }
                }
            }
            group.cancelAll()
        }
    }
}

/// The controlling terminal, handed to the command's process group while it runs, so that it
/// can read the terminal and Control-C reaches it, as in a shell.
struct ForegroundTerminal {
    /// Gives the terminal on standard input to `command`'s group, if this process has it in
    /// the foreground; nil otherwise (no terminal, or run in the background).
    static func handOver(to command: ChildProcess) -> ForegroundTerminal? {
        guard isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp(),
              tcsetpgrp(STDIN_FILENO, command.pid) == 0 else { return nil }
        // It may have touched the terminal before it was its own, and been stopped for it.
        command.signalGroup(SIGCONT)
        return ForegroundTerminal()
    }

    /// Takes the terminal back for this process's group (now in the background, hence
    /// `SIGTTOU` ignored meanwhile).
    func takeBack() {
        let previous = signal(SIGTTOU, SIG_IGN)
        tcsetpgrp(STDIN_FILENO, getpgrp())
        signal(SIGTTOU, previous)
    }
}
