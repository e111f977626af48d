import Glibc
import SoundServerSandbox
import Synchronization

/// A `pacat` process playing silence to a sink or recording a source of a sandbox server: a
/// real client stream (sink input or source output), carrying its pid as
/// `application.process.id`.
///
/// Started with `posix_spawn` and stopped with `SIGKILL` and `waitpid` on its own pid, rather
/// than with Foundation's `Process`: `Process` learns that
/// a child ended from a socket the child holds, which other children spawned at the same
/// moment can inherit and keep open; `waitUntilExit()` then never returns, and two such
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
        processID = try Self.spawn(commandLine, environment: server.environment)
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

    /// Spawns `commandLine` with exactly `environment`, `/dev/null` as its standard streams,
    /// default signal handling, an empty signal mask, and no descriptor above 2.
    private static func spawn(_ commandLine: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc 2.34 and later; looked up at run time, as Swift's Glibc module omits GNU extensions.
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
        for number in Int32(1)..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
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
        guard result == 0 else { throw SpawnFailure(command: commandLine, code: result) }
        return pid
    }

    /// `posix_spawn` failed.
    struct SpawnFailure: Error, CustomStringConvertible {
        let command: [String]
        let code: Int32
        var description: String { "could not start \(command.joined(separator: " ")): \(String(cString: strerror(code)))" }
    }
}
