import Subprocess

extension ChildProcess {
    /// How a ``run(_:environment:timeLimit:)`` ended, and what the child wrote.
    package struct Completion: Sendable {
        /// How it ended.
        package var termination: Termination
        /// Its standard output.
        package var standardOutput: String
        /// Its standard error.
        package var standardError: String
        /// Whether it was killed because it outlived its time limit.
        package var timedOut: Bool
    }

    /// Runs `commandLine` (an absolute path first) with exactly `environment` and
    /// `/dev/null` as standard input, to its end, and returns what it wrote.
    ///
    /// It is killed (`SIGKILL`) when `timeLimit` passes, and when the calling task is cancelled
    /// (then the caller should check for cancellation: the completion says it was killed).
    package static func run(
        _ commandLine: [String],
        environment: [String: String],
        timeLimit: Duration
    ) async throws(ProcessError) -> Completion {
        let configuration = Configuration(commandLine, environment: environment)
        do {
            let result = try await withTaskExecutorPreference(RunnerExecutor()) {
                try await runCollecting(configuration, timeLimit: timeLimit)
            }
            return Completion(
                termination: Termination(result.terminationStatus),
                standardOutput: result.closureResult.output,
                standardError: result.closureResult.error,
                timedOut: result.closureResult.timedOut
            )
        } catch {
            throw ProcessError(commandLine, error)
        }
    }

    /// What a collected run returns: its status, what it wrote, whether its time ran out.
    private typealias CollectedRun = ExecutionResult<(output: String, error: String, timedOut: Bool), SequenceOutput, SequenceOutput>

    /// The run itself: both outputs read to their end while a timer kills the child
    /// (`SIGKILL`) if `timeLimit` passes before it has exited.
    private static func runCollecting(_ configuration: Configuration, timeLimit: Duration) async throws -> CollectedRun {
        try await Subprocess.run(
            configuration, input: NoInput.none, output: SequenceOutput.sequence, error: SequenceOutput.sequence
        ) { execution in
            await withTaskGroup(of: Bool.self) { group in
                // The time limit: true if it passed and the child was killed.
                group.addTask {
                    do { try await Task.sleep(for: timeLimit) } catch { return false }
                    _ = try? execution.send(signal: .kill)
                    return true
                }
                async let output = collect(execution.standardOutput)
                async let error = collect(execution.standardError)
                let collected = await (output, error)
                // Until the child has exited, the time limit still holds (it may have
                // closed its outputs and gone on).
                await ProcessExit.wait(for: execution.processIdentifier)
                group.cancelAll()
                let timedOut = await group.next() ?? false
                return (output: collected.0, error: collected.1, timedOut: timedOut)
            }
        }
    }

    /// Everything `output` delivers, as text.
    private static func collect(_ output: SubprocessOutputSequence) async -> String {
        var bytes: [UInt8] = []
        do {
            for try await buffer in output {
                buffer.withUnsafeBytes { bytes.append(contentsOf: $0) }
            }
        } catch {
            // A failed read ends the output: what came is all there is.
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
