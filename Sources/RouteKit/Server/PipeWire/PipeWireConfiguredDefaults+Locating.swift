import Foundation
import Glibc

/// Finding `pw-metadata`.
extension PipeWireConfiguredDefaults {

    /// The path of `executable`: itself when it has a `/`, else the first executable file of
    /// that name in `PATH` (the environment's, else this process's, else the usual one).
    static func locate(_ executable: String, in environment: [String: String]) throws(Failure) -> String {
        if executable.contains("/") {
            guard access(executable, X_OK) == 0 else { throw .toolMissing(executable: executable, searched: []) }
            return executable
        }
        let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        for directory in directories {
            let candidate = directory.hasSuffix("/") ? directory + executable : directory + "/" + executable
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT != S_IFDIR, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw .toolMissing(executable: executable, searched: directories)
    }
}
