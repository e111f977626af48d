import SystemPackage

extension ChildProcess {
    /// Where a child's standard input comes from.
    package enum Input: Sendable {
        /// `/dev/null`: end of file at once.
        case nullDevice
        /// This process's own standard input.
        case inherited
        /// A pipe that this process holds open, writing nothing, until
        /// ``ChildProcess/closeStandardInput()`` or the child's end.
        case heldOpen
        /// This descriptor (a pipe's read end, say); this process's copy is closed once the
        /// child has it.
        case descriptor(FileDescriptor)
    }

    /// Where a child's standard output (or standard error) goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case nullDevice
        /// This process's own standard output (for standard error: its standard error).
        case inherited
        /// Appended to the file at this path, created (mode 0644) if needed.
        case appendingToFile(String)
        /// This descriptor (a pipe's write end, say); this process's copy is closed once the
        /// child has it.
        case descriptor(FileDescriptor)
        /// Read here, line by line: `onLine` gets each line (without its `\n`) with the moment
        /// it was read, in order; `onEnd` is called once, when the output ends (the child and
        /// everything that inherited it closed it, or the child exited).
        case lines(onLine: @Sendable (ContinuousClock.Instant, String) -> Void, onEnd: @Sendable () -> Void = {})
    }

    /// Where a child's standard error goes.
    package enum ErrorOutput: Sendable {
        /// Wherever standard output goes, as `2>&1`.
        case standardOutput
        /// Here.
        case separately(Output)
    }
}

/// A stream settled into either a descriptor for the child or lines for this process.
enum PreparedStream: Sendable {
    /// The child gets `descriptor`; this process closes its copy after the spawn if `close`.
    case descriptor(FileDescriptor, close: Bool)
    /// A pipe that this process reads line by line.
    case lines(LineHandler)
}

/// What a ``ChildProcess/Output/lines(onLine:onEnd:)`` output is handed.
struct LineHandler: Sendable {
    let onLine: @Sendable (ContinuousClock.Instant, String) -> Void
    let onEnd: @Sendable () -> Void
}

extension ChildProcess.Output {
    /// Opens what this output needs; `standardError` picks the descriptor ``inherited`` means.
    func prepare(standardError: Bool) throws -> PreparedStream {
        switch self {
        case .nullDevice:
            .descriptor(try FileDescriptor.open("/dev/null", .writeOnly, options: .closeOnExec), close: true)
        case .inherited:
            .descriptor(standardError ? .standardError : .standardOutput, close: false)
        case .appendingToFile(let path):
            .descriptor(try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .append, .closeOnExec],
                                                permissions: [.ownerReadWrite, .groupRead, .otherRead]), close: true)
        case .descriptor(let descriptor):
            .descriptor(descriptor, close: true)
        case .lines(let onLine, let onEnd):
            .lines(LineHandler(onLine: onLine, onEnd: onEnd))
        }
    }
}

extension ChildProcess.Input {
    /// The descriptor the child reads, whether this process closes its copy after the spawn,
    /// and, for ``heldOpen``, the write end this process keeps.
    func prepare() throws -> (descriptor: FileDescriptor, close: Bool, held: FileDescriptor?) {
        switch self {
        case .nullDevice:
            (try FileDescriptor.open("/dev/null", .readOnly, options: .closeOnExec), true, nil)
        case .inherited:
            (.standardInput, false, nil)
        case .heldOpen:
            try {
                let pipe = try FileDescriptor.pipe(options: .closeOnExec)
                return (pipe.readEnd, true, pipe.writeEnd)
            }()
        case .descriptor(let descriptor):
            (descriptor, true, nil)
        }
    }
}

extension ChildProcess {
    /// A new pipe, for one child's output to be another's input (`a | b`): give `writeEnd`
    /// to the writer and `readEnd` to the reader. Each end is closed in this process once its
    /// child has it, so that the reader sees end of file when the writer is gone.
    package static func pipe() throws(Errno) -> (readEnd: Input, writeEnd: Output) {
        let pipe = try FileDescriptor.pipe(options: .closeOnExec)
        return (.descriptor(pipe.readEnd), .descriptor(pipe.writeEnd))
    }
}
