import Subprocess

/// Why a process could not be started.
package struct ProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line that could not be started.
    package let commandLine: [String]
    /// Why, in words.
    package let reason: String
    /// Whether the cause is that the program does not exist (or is not executable).
    package let programIsMissing: Bool

    /// An error for `commandLine`.
    package init(_ commandLine: [String], reason: String, programIsMissing: Bool = false) {
        self.commandLine = commandLine
        self.reason = reason
        self.programIsMissing = programIsMissing
    }

    /// The error swift-subprocess reported, in these terms.
    init(_ commandLine: [String], _ error: any Error) {
        if let error = error as? SubprocessError {
            self.init(commandLine, reason: error.description, programIsMissing: error.code == .executableNotFound)
        } else {
            self.init(commandLine, reason: "\(error)")
        }
    }

    /// "could not start /usr/bin/pactl: …".
    package var description: String {
        "could not start \(commandLine.first ?? "a process"): \(reason)"
    }
}
