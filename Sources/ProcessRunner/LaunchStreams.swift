import Subprocess
import SystemPackage

/// A child's three standard streams, opened and ready for swift-subprocess, and the one
/// `run` call for each mix of descriptors and line-read pipes they make.
struct LaunchStreams: Sendable {
    /// What the child reads, and whether this process closes its copy after the spawn.
    let input: (descriptor: FileDescriptor, close: Bool)
    /// The write end of a held-open standard input.
    let heldInput: FileDescriptor?
    /// Where standard output goes.
    let output: PreparedStream
    /// Nil: standard error goes wherever standard output goes.
    let error: PreparedStream?

    /// Opens what `input`, `output` and `error` need; closes it all again if one fails.
    init(input: ChildProcess.Input, output: ChildProcess.Output, error: ChildProcess.ErrorOutput) throws {
        let preparedInput = try input.prepare()
        do {
            let preparedOutput = try output.prepare(standardError: false)
            do {
                if case .separately(let error) = error {
                    self.error = try error.prepare(standardError: true)
                } else {
                    self.error = nil
                }
            } catch {
                preparedOutput.closeIfOwned()
                throw error
            }
            self.output = preparedOutput
        } catch {
            if preparedInput.close { try? preparedInput.descriptor.close() }
            try? preparedInput.held?.close()
            throw error
        }
        self.input = (preparedInput.descriptor, preparedInput.close)
        heldInput = preparedInput.held
    }

    /// What runs while the child does: its pid, a way to signal it, and the outputs to read
    /// line by line. It must not return before the child has exited.
    typealias Body = (ProcessIdentifier, @escaping ChildProcess.Signaller, [LineOutput]) async -> Void

    /// An output pipe and who reads its lines.
    typealias LineOutput = (sequence: SubprocessOutputSequence, handler: LineHandler)

    /// Starts the child under `configuration` with these streams, runs `body` while it runs,
    /// and returns how it ended once swift-subprocess has reaped it. From this call on,
    /// swift-subprocess owns the descriptors handed to the child (and closes them, also when
    /// the spawn fails); only ``heldInput`` stays this process's.
    func run(_ configuration: Configuration, body: Body) async throws -> TerminationStatus {
        let input = FileDescriptorInput.fileDescriptor(self.input.descriptor, closeAfterSpawningProcess: self.input.close)
        switch (output, error) {
        case (.descriptor(let output, let close), nil):
            return try await Subprocess.run(
                configuration, input: input,
                output: FileDescriptorOutput.fileDescriptor(output, closeAfterSpawningProcess: close),
                error: CombinedErrorOutput.combinedWithOutput
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution), [])
            }.terminationStatus
        case (.lines(let handler), nil):
            return try await Subprocess.run(
                configuration, input: input, output: SequenceOutput.sequence, error: CombinedErrorOutput.combinedWithOutput
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution), [(execution.standardOutput, handler)])
            }.terminationStatus
        case (.descriptor(let output, let closeOutput), .descriptor(let error, let closeError)):
            return try await Subprocess.run(
                configuration, input: input,
                output: FileDescriptorOutput.fileDescriptor(output, closeAfterSpawningProcess: closeOutput),
                error: FileDescriptorOutput.fileDescriptor(error, closeAfterSpawningProcess: closeError)
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution), [])
            }.terminationStatus
        case (.descriptor(let output, let close), .lines(let handler)):
            return try await Subprocess.run(
                configuration, input: input,
                output: FileDescriptorOutput.fileDescriptor(output, closeAfterSpawningProcess: close),
                error: SequenceOutput.sequence
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution), [(execution.standardError, handler)])
            }.terminationStatus
        case (.lines(let handler), .descriptor(let error, let close)):
            return try await Subprocess.run(
                configuration, input: input, output: SequenceOutput.sequence,
                error: FileDescriptorOutput.fileDescriptor(error, closeAfterSpawningProcess: close)
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution), [(execution.standardOutput, handler)])
            }.terminationStatus
        case (.lines(let outputHandler), .lines(let errorHandler)):
            return try await Subprocess.run(
                configuration, input: input, output: SequenceOutput.sequence, error: SequenceOutput.sequence
            ) { execution in
                await body(execution.processIdentifier, Self.signaller(execution),
                           [(execution.standardOutput, outputHandler), (execution.standardError, errorHandler)])
            }.terminationStatus
        }
    }

    /// Signals through `execution` (its pidfd), for as long as the body that received it runs.
    private static func signaller<I, O, E>(_ execution: Execution<I, O, E>) -> ChildProcess.Signaller {
        { number, toProcessGroup in
            (try? execution.send(signal: Signal(rawValue: number), toProcessGroup: toProcessGroup)) != nil
        }
    }
}

extension PreparedStream {
    /// Closes the descriptor if this process opened it for the child.
    func closeIfOwned() {
        if case .descriptor(let descriptor, close: true) = self { try? descriptor.close() }
    }
}
