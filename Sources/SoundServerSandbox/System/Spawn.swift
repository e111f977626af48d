import Glibc

/// Starts a process with `posix_spawn`: the only place this module creates processes.
///
/// The child gets exactly the given environment, `/dev/null` as standard input (unless it
/// inherits this process's), default signal dispositions and an empty signal mask (a test
/// runner may ignore `SIGPIPE`, and Swift's executor threads block `SIGINT` and `SIGTERM`),
/// and no file descriptor above 2, so that it cannot keep another child's pipe open.
package enum Spawn {
    /// Where the child's standard output and standard error go.
    package enum Output {
        /// Both appended to the file at this path, which is created if needed.
        case appendingToFile(String)
        /// Standard output and standard error to these descriptors (write ends of pipes).
        case descriptors(standardOutput: Int32, standardError: Int32)
        /// Standard input, output and error are this process's own, and the child leads a
        /// process group of its own, so that it and its children can be signalled together.
        case inheritedInNewProcessGroup
    }

    /// Starts `commandLine[0]` (an absolute path) with `commandLine` as its arguments, from the
    /// calling thread, and returns its pid.
    package static func spawn(
        _ commandLine: [String],
        environment: [String: String],
        output: Output
    ) throws(SandboxError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch output {
        case .appendingToFile(let path):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .descriptors(let standardOutput, let standardError):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        case .inheritedInNewProcessGroup:
            break
        }
        closeDescriptorsFromThree(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in 1..<firstRealTimeSignal where number != SIGKILL && number != SIGSTOP {
            sigaddset(&defaults, number)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if case .inheritedInNewProcessGroup = output {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let arguments = commandLine.map { strdup($0) } + [nil]
        let variables = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, commandLine[0], &actions, &attributes, arguments, variables)
        guard result == 0 else {
            throw SandboxError(
                "could not start \(commandLine[0]): \(String(cString: strerror(result)))",
                command: commandLine
            )
        }
        return pid
    }

    /// The first real-time signal number; signals below it have default dispositions to restore.
    private static let firstRealTimeSignal: Int32 = 32

    /// Adds "close every descriptor from 3 up" when glibc has it (2.34 and later). The symbol
    /// is looked up at run time because Swift's Glibc module omits GNU extensions.
    private static func closeDescriptorsFromThree(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
        _ = addCloseFrom(&actions, 3)
    }
}
