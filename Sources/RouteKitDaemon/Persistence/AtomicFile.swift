import Glibc

/// Writes a small file so that a reader sees the old content or the new, never a part of
/// one, even across a crash or a power cut: a temporary file beside it (mode 0600), `fsync`,
/// `rename` over the old one, `fsync` of the directory. The directory is created with mode
/// 0700 when missing (its missing parents too, as the XDG Base Directory specification asks),
/// and set to 0700 when it exists with more: what is kept here is the user's alone.
package enum AtomicFile {
    /// A step that failed, with the system's words.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        /// What was being done (`create directory /x`, `write /x/state.json`).
        var operation: String
        /// `strerror`'s words.
        var reason: String

        /// `operation: reason`.
        package var description: String { "\(operation): \(reason)" }
    }

    /// Replaces the file at `path` with `bytes`, or leaves it as it was and throws.
    package static func write(_ bytes: [UInt8], toPath path: String) throws(Failure) {
        let directory = parent(of: path)
        try makePrivateDirectory(directory)
        var template = Array((directory + "/." + name(of: path) + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("create a file in \(directory)") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("set the mode of \(temporary)") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write \(temporary)")
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure("flush \(temporary)") }
        }
        guard rename(temporary, path) == 0 else { throw failure("replace \(path)") }
        renamed = true
        syncDirectory(directory)
    }

    /// Removes the file at `path`; a file already gone is no failure.
    package static func remove(atPath path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove \(path)") }
        syncDirectory(parent(of: path))
    }

    /// `directory`, mode 0700, created with its missing parents (each 0700).
    package static func makePrivateDirectory(_ directory: String) throws(Failure) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw Failure(operation: "use \(directory) as a directory", reason: "it is not one")
            }
            if status.st_mode & 0o077 != 0, status.st_uid == getuid(), chmod(directory, 0o700) != 0 {
                throw failure("make \(directory) private")
            }
            return
        }
        try createMissingDirectory(directory)
    }

    /// Creates `directory` (0700) and its missing parents; leaves an existing parent as it
    /// is: it is not ours.
    private static func createMissingDirectory(_ directory: String) throws(Failure) {
        var status = stat()
        if stat(directory, &status) == 0 { return }
        let above = parent(of: directory)
        if above != directory, !above.isEmpty { try createMissingDirectory(above) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw failure("create directory \(directory)") }
    }

    /// So that the rename itself survives a power cut.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    package static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private static func failure(_ operation: String) -> Failure {
        Failure(operation: operation, reason: String(cString: strerror(errno)))
    }
}
