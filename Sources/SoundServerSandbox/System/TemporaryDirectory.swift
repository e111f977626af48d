import Glibc

/// Creating the sandbox directory.
enum TemporaryDirectory {
    /// Creates a new directory `/tmp/<prefix>XXXXXX`, readable only by this user, and returns
    /// its path. Always under `/tmp`, whatever `TMPDIR` says, because the sockets inside must
    /// fit in `sockaddr_un`'s 108 bytes.
    static func create(prefix: String) throws(SandboxError) -> String {
        var template = Array("/tmp/\(prefix)XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let created else {
            throw SandboxError("could not create a temporary directory: \(String(cString: strerror(errno)))")
        }
        return String(cString: created)
    }
}
