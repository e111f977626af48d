import ProcessRunner

/// Why a ``SandboxServer`` operation failed: what it was doing, and the evidence — the command,
/// how it ended, what it wrote to standard error, and the end of the servers' logs.
public struct SandboxError: Error, Sendable, CustomStringConvertible {
    /// What failed, in one sentence.
    public let message: String

    /// The command line that failed, if a command was run.
    public let command: [String]

    /// The exit status of the failed command, if it exited (`nil` if it was killed by a
    /// signal, timed out or never ran).
    public let exitStatus: Int32?

    /// What the failed command wrote to standard error.
    public let standardError: String

    /// The last lines of the sandbox's server logs, when they explain the failure.
    public let logTail: String

    /// Creates an error; every part but the message is optional evidence.
    public init(
        _ message: String,
        command: [String] = [],
        exitStatus: Int32? = nil,
        standardError: String = "",
        logTail: String = ""
    ) {
        self.message = message
        self.command = command
        self.exitStatus = exitStatus
        self.standardError = standardError
        self.logTail = logTail
    }

    /// The message followed by every piece of evidence there is, one per line.
    public var description: String {
        var lines = ["SoundServerSandbox: \(message)"]
        if !command.isEmpty {
            lines.append("command: \(command.joined(separator: " "))")
        }
        if let exitStatus {
            lines.append("exit status: \(exitStatus)")
        }
        let error = standardError.trimmingTrailingNewlines()
        if !error.isEmpty {
            lines.append("stderr: \(error)")
        }
        let log = logTail.trimmingTrailingNewlines()
        if !log.isEmpty {
            lines.append("log tail:\n\(log)")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string without the newlines at its end.
    func trimmingTrailingNewlines() -> String {
        var result = Substring(self)
        while result.last?.isNewline == true { result = result.dropLast() }
        return String(result)
    }
}

extension SandboxError {
    /// A process that could not be started, with its command line.
    init(_ error: ProcessError) {
        self.init(error.description, command: error.commandLine)
    }
}
