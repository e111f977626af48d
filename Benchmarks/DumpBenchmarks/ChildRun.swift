#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One run of a child process, measured from outside: its wall time and its peak memory.
struct ChildRun {
    /// The exit status (or 128 + the signal).
    var status: Int32
    /// Wall time from spawn to exit, in seconds.
    var seconds: Double
    /// Peak resident memory, in kilobytes (`ru_maxrss` of the child alone).
    var peakKilobytes: Int

    /// Runs `executable` with `arguments`, its standard output and error sent to /dev/null.
    static func run(_ executable: String, _ arguments: [String]) -> ChildRun? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        let elapsed = ContinuousClock.now - start
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildRun(status: exit, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                        peakKilobytes: usage.ru_maxrss)
    }
}
