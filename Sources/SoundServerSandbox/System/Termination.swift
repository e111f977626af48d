import Glibc

/// How a child process ended.
package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal with this number killed it.
    case signaled(Int32)
    /// Something else reaped it, so its status is unknown.
    case unknown

    /// Decodes a `waitpid` status (the `WIFEXITED` family are C macros Swift cannot import).
    init(waitStatus status: Int32) {
        if status & 0x7F == 0 {
            self = .exited((status >> 8) & 0xFF)
        } else {
            self = .signaled(status & 0x7F)
        }
    }

    /// The exit status, if the process exited.
    package var exitStatus: Int32? {
        if case .exited(let status) = self { status } else { nil }
    }

    /// "exit status 1", "signal 9 (Killed)".
    package var description: String {
        switch self {
        case .exited(let status):
            "exit status \(status)"
        case .signaled(let number):
            "signal \(number) (\(strsignal(number).map { String(cString: $0) } ?? "unknown"))"
        case .unknown:
            "unknown status (reaped elsewhere)"
        }
    }
}
