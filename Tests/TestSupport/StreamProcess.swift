import Glibc
import SoundServerSandbox
import Synchronization

/// A `pacat` process playing silence to a sink or recording a source of a sandbox server: a
/// real client stream (sink input or source output), carrying its pid as
/// `application.process.id`.
///
/// Started with the sandbox's `posix_spawn` (nothing above fd 2 inherited) and stopped with
/// `SIGKILL` and `waitpid` on its own pid, rather than with Foundation's `Process`: `Process`
/// learns that a child ended from a socket the child holds, which other children spawned at
/// the same moment can inherit and keep open; `waitUntilExit()` then never returns, and two such
/// waits block both threads of a two-core machine's executor, hanging the whole test run
/// (seen here with the manager tests running in parallel). This child gets no descriptor
/// above 2, and stopping it never waits on anything but its own exit after `SIGKILL`.
public final class StreamProcess: Sendable {
    /// Playback (a sink input) or recording (a source output).
    public enum Direction: Sendable { case playback, record }

    /// The pacat process's pid, which the stream carries as `application.process.id`.
    public let processID: pid_t
    private let reaped = Mutex(false)

    /// Starts pacat against `server` on `device` (a sink or source name, or `@DEFAULT_SINK@`).
    public init(on server: SandboxServer, _ direction: Direction, device: String, properties: [String: String] = [:]) throws {
        var commandLine = ["/usr/bin/pacat", direction == .playback ? "--playback" : "--record", "--raw", "--device=\(device)"]
        commandLine += properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" }
        commandLine.append(direction == .playback ? "/dev/zero" : "/dev/null")
        processID = try Spawn.spawn(commandLine, environment: server.environment, output: .appendingToFile("/dev/null"))
    }

    /// Kills pacat and reaps it (at once: `SIGKILL` cannot be caught).
    public func stop() {
        reaped.withLock { reaped in
            guard !reaped else { return }
            kill(processID, SIGKILL)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
            reaped = true
        }
    }

    deinit { stop() }
}
