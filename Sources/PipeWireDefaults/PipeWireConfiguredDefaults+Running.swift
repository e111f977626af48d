import ProcessRunner
import RouteKit

/// Running `pw-metadata` once.
extension PipeWireConfiguredDefaults {
    /// Runs `commandLine` with exactly `environment` through the package's process runner and
    /// returns what it wrote, if it exited with status 0 within `timeout`. Throws ``Failure``
    /// otherwise, and `CancellationError` (after it was killed) when the task is cancelled.
    static func run(_ commandLine: [String], environment: [String: String],
                    timeout: Duration) async throws -> ChildProcess.Completion {
        let run: ChildProcess.Completion
        do {
            run = try await ChildProcess.run(commandLine, environment: environment, timeLimit: timeout)
        } catch {
            try Task.checkCancellation()
            throw Failure.launchFailed(path: commandLine[0], reason: error.reason)
        }
        try Task.checkCancellation()
        if run.timedOut { throw Failure.timedOut(after: timeout) }
        switch run.termination {
        case .exited(0):
            return run
        case .exited(let status):
            throw Failure.failed(status: status, standardError: run.standardError)
        case .signaled(let signal):
            throw Failure.killed(signal: signal, standardError: run.standardError)
        case .unknown:
            throw Failure.failed(status: -1, standardError: "its end could not be observed\n" + run.standardError)
        }
    }
}
