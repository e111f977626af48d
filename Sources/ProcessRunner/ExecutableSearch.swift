import Glibc

/// Finding a program as a shell does, before starting it.
package enum ExecutableSearch {
    /// The directories a `PATH` value names, in order (empty entries left out).
    package static func directories(inPath path: String) -> [String] {
        path.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
    }

    /// The first of `directories` holding an executable file (not a directory) called `name`.
    package static func find(_ name: String, in directories: [String]) -> String? {
        directories.lazy
            .map { $0.hasSuffix("/") ? $0 + name : $0 + "/" + name }
            .first(where: isExecutableFile)
    }

    /// Whether `path` is a file (not a directory) that this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR && access(path, X_OK) == 0
    }
}
