import Foundation
import Glibc
import ProcessRunner

/// One run of a child process, measured from outside: its wall time and its peak memory.
///
/// The package's process runner reaps its children itself, so a child's own `ru_maxrss`
/// (which `wait4` gives) is out of reach; `RUSAGE_CHILDREN` gives the largest of every child
/// reaped so far. So each measured run happens inside a fresh `dump-benchmarks --measure`,
/// which starts the one child, waits for it, and reports: there the largest child is that one.
struct ChildRun {
    /// The exit status (or 128 + the signal).
    var status: Int32
    /// Wall time from spawn to exit, in seconds.
    var seconds: Double
    /// Peak resident memory, in kilobytes (`ru_maxrss` of the child alone).
    var peakKilobytes: Int

    /// The argument that makes `dump-benchmarks` measure the command line after it.
    static let measureFlag = "--measure"

    /// Runs `executable` with `arguments`, its standard output and error sent to /dev/null,
    /// in a measuring `dump-benchmarks` of its own; nil if it could not be run.
    static func run(_ executable: String, _ arguments: [String]) async -> ChildRun? {
        let benchmarks = URL(fileURLWithPath: CommandLine.arguments[0]).path
        guard let run = try? await ChildProcess.run([benchmarks, measureFlag, executable] + arguments,
                                                    environment: ProcessInfo.processInfo.environment,
                                                    timeLimit: .seconds(600)),
              run.termination == .exited(0) else { return nil }
        let fields = run.standardOutput.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let status = Int32(fields[0]), let seconds = Double(fields[1]),
              let peak = Int(fields[2]) else { return nil }
        return ChildRun(status: status, seconds: seconds, peakKilobytes: peak)
    }

    /// The measuring side: runs `commandLine` once and prints "status seconds peak-kilobytes";
    /// exits 1 if it could not be started.
    static func measure(_ commandLine: [String]) async -> Int32 {
        let start = ContinuousClock.now
        guard let child = try? await ChildProcess.launch(commandLine, environment: ProcessInfo.processInfo.environment,
                                                         output: .nullDevice, error: .separately(.nullDevice)) else {
            return 1
        }
        let termination = await child.completion(within: nil) ?? .unknown
        let elapsed = ContinuousClock.now - start
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("\(termination.shellStatus) \(seconds) \(usage.ru_maxrss)")
        return 0
    }
}
