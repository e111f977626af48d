import Glibc

/// Writes to standard output at once (no stdio buffer: a script reading `monitor --json`
/// gets each line as it happens). Returns false once nobody reads (a closed pipe, EPIPE with
/// SIGPIPE ignored), so that the monitor can end quietly, as `monitor --json | head -3` wants.
enum StandardOutput {
    /// Writes `text`; false when it could not be written.
    @discardableResult
    static func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, start + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
