import Glibc
import RouteKitDaemon

/// Writes to standard output at once (no stdio buffer: a script reading `monitor --json`
/// gets each line as it happens). Returns false once nobody reads (a closed pipe, EPIPE with
/// SIGPIPE ignored), so that the monitor can end quietly, as `monitor --json | head -3` wants.
enum StandardOutput {
    /// Writes `text`; false when it could not be written.
    @discardableResult
    static func write(_ text: String) -> Bool {
        writeAll(text, to: STDOUT_FILENO)
    }
}
