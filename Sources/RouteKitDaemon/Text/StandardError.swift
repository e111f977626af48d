import FoundationEssentials
import Glibc

/// Writes `message` and a newline to standard error. A write that fails (standard error
/// closed, or a pipe whose reader has gone: EPIPE once SIGPIPE is ignored) is dropped, never
/// fatal: `FileHandle.write(_:)` traps on any error, and the daemon must keep routing when
/// nobody reads its lines (`routectl daemon 2>&1 | head -1`).
package func printToStandardError(_ message: String) {
    _ = writeAll(message + "\n", to: STDERR_FILENO)
}

/// An environment variable, nil when unset or empty.
package func getenvString(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
