import ConcurrencySupport
import Glibc
import Subprocess
import SystemPackage

extension ChildProcess {
    /// Starts `commandLine` (an absolute path first) with exactly `environment`, and returns
    /// once it runs. It runs until it ends by itself or is signalled: nothing here stops it.
    ///
    /// - Parameters:
    ///   - input: what it reads on standard input.
    ///   - output: where its standard output goes.
    ///   - error: where its standard error goes (with standard output unless told).
    ///   - newProcessGroup: whether it leads a process group of its own, so that it and what
    ///     it starts can be signalled together (``signalGroup(_:)``).
    package static func launch(
        _ commandLine: [String],
        environment: [String: String],
        input: Input = .nullDevice,
        output: Output,
        error: ErrorOutput = .standardOutput,
        newProcessGroup: Bool = false
    ) async throws(ProcessError) -> ChildProcess {
        let streams: LaunchStreams
        do {
            streams = try LaunchStreams(input: input, output: output, error: error)
        } catch {
            throw ProcessError(commandLine, error)
        }
        let configuration = Configuration(commandLine, environment: environment, newProcessGroup: newProcessGroup)
        let started: Result<ChildProcess, ProcessError> = await withCheckedContinuation { continuation in
            Task.detached(executorPreference: RunnerExecutor()) {
                await supervise(commandLine, configuration, streams, started: continuation)
            }
        }
        return try started.get()
    }

    /// Runs the child from spawn to reaping: hands it to the launcher, reads its lines, waits
    /// for its exit, and only then lets swift-subprocess reap it.
    private static func supervise(
        _ commandLine: [String],
        _ configuration: Configuration,
        _ streams: LaunchStreams,
        started: CheckedContinuation<Result<ChildProcess, ProcessError>, Never>
    ) async {
        /// What the launcher was told: nothing yet, the child, or that it was refused.
        enum Launch { case pending, started(ChildProcess), refused }
        let launch = LockedValue(Launch.pending)
        do {
            let status = try await streams.run(configuration) { processIdentifier, signaller, lineOutputs in
                guard ProcessExit.available(for: processIdentifier) else {
                    // Without a pidfd its exit cannot be awaited, and so it cannot be signalled
                    // safely: it is not left running.
                    _ = signaller(SIGKILL, false)
                    try? streams.heldInput?.close()
                    launch.withLock { $0 = .refused }
                    started.resume(returning: .failure(ProcessError(
                        commandLine, reason: "this kernel gives no pidfd for it (Linux 5.3 or later is needed)")))
                    return
                }
                let child = ChildProcess(pid: processIdentifier.value, commandLine: commandLine,
                                         signaller: signaller, standardInput: streams.heldInput)
                launch.withLock { $0 = .started(child) }
                started.resume(returning: .success(child))
                await withTaskGroup(of: Void.self) { group in
                    for output in lineOutputs {
                        group.addTask { await LineSplitter.read(output.sequence, into: output.handler) }
                    }
                    group.addTask { await ProcessExit.wait(for: processIdentifier) }
                }
                child.exited()
            }
            if case .started(let child) = launch.withLock({ $0 }) { child.reaped(Termination(status)) }
        } catch {
            switch launch.withLock({ $0 }) {
            case .started(let child):
                child.reaped(.unknown)
            case .pending:
                try? streams.heldInput?.close()
                started.resume(returning: .failure(ProcessError(commandLine, error)))
            case .refused:
                break
            }
        }
    }
}

extension Configuration {
    /// `commandLine[0]` (an absolute path) with the rest as its arguments and exactly
    /// `environment`, optionally leading a new process group.
    init(_ commandLine: [String], environment: [String: String], newProcessGroup: Bool = false) {
        var options = PlatformOptions()
        if newProcessGroup { options.processGroupID = 0 }
        self.init(
            executable: .path(FilePath(commandLine.first ?? "")),
            arguments: Arguments(Array(commandLine.dropFirst())),
            // The dictionary form: swift-subprocess 1.0.2 hands `[[UInt8]]` entries to
            // `strdup` without a terminating NUL.
            environment: .custom(Dictionary(uniqueKeysWithValues: environment.compactMap { key, value in
                Environment.Key(rawValue: key).map { ($0, value) }
            })),
            platformOptions: options
        )
    }
}
