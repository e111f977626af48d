import FoundationEssentials
import Glibc

/// Writes `message` and a newline to standard error. A write that fails (standard error
/// closed, or a pipe whose reader has gone: EPIPE once SIGPIPE is ignored) is dropped, never
/// fatal: `FileHandle.write(_:)` traps on any error, and the daemon must keep routing when
/// nobody reads its lines (`routectl daemon 2>&1 | head -1`).
func printToStandardError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        guard let start = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(STDERR_FILENO, start + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// An environment variable, nil when unset or empty.
func getenvString(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
