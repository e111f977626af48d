import Glibc
import ProcessRunner

/// A child process whose standard output (and standard error) is read line by line, each
/// line handed on with the moment it was read: a script that reports what it did, a helper
/// that says when it is ready. Started and stopped through the package's process runner.
///
/// With `wholeGroup`, the child leads a process group of its own and ``stop()`` signals that
/// group, so that everything the process started (a shell pipeline) ends with it, by the
/// group's id and nothing else.
public final class LineEmittingProcess: Sendable {
    private let process: ChildProcess
    /// Whether ``stop()`` signals the process group.
    private let wholeGroup: Bool

    /// The process id.
    public var processID: Int32 { process.pid }

    /// Starts `executable` with `arguments` and exactly `environment` (nothing inherited);
    /// `onLine` is called for every line, in order, then `onEnd` once the output ends.
    /// Standard input stays open until ``stop()``.
    public init(executable: String, arguments: [String], environment: [String: String],
                wholeGroup: Bool = false,
                onLine: @escaping @Sendable (ContinuousClock.Instant, String) -> Void,
                onEnd: @escaping @Sendable () -> Void = {}) async throws {
        process = try await ChildProcess.launch([executable] + arguments, environment: environment,
                                                input: .heldOpen, output: .lines(onLine: onLine, onEnd: onEnd),
                                                newProcessGroup: wholeGroup)
        self.wholeGroup = wholeGroup
    }

    /// Ends the process (with `wholeGroup`, its whole process group): closes its standard
    /// input, sends `SIGTERM`, then `SIGKILL` after a second, and waits until it is reaped.
    public func stop() async {
        process.closeStandardInput()
        send(SIGTERM)
        if await process.completion(within: .seconds(1)) != nil { return }
        send(SIGKILL)
        _ = await process.completion(within: nil)
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    private func send(_ signal: Int32) {
        if wholeGroup { process.signalGroup(signal) } else { process.signal(signal) }
    }
}
