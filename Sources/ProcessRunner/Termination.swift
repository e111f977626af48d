import Glibc
import Subprocess

/// How a child process ended.
package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal with this number killed it.
    case signaled(Int32)
    /// Its end could not be observed (the process monitor failed).
    case unknown

    /// The same ending, from swift-subprocess's status.
    init(_ status: TerminationStatus) {
        switch status {
        case .exited(let code): self = .exited(code)
        case .signaled(let number): self = .signaled(number)
        }
    }

    /// The exit status, if the process exited.
    package var exitStatus: Int32? {
        if case .exited(let status) = self { status } else { nil }
    }

    /// The status a shell reports: the exit status, or 128 + n after signal n (1 if unknown).
    package var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .signaled(let number): 128 + number
        case .unknown: 1
        }
    }

    /// "exit status 1", "signal 9 (Killed)".
    package var description: String {
        switch self {
        case .exited(let status):
            "exit status \(status)"
        case .signaled(let number):
            "signal \(number) (\(strsignal(number).map { String(cString: $0) } ?? "unknown"))"
        case .unknown:
            "unknown status (its end could not be observed)"
        }
    }
}
