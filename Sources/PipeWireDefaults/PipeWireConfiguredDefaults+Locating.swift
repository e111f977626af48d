import FoundationEssentials
import ProcessRunner
import RouteKit

/// Finding `pw-metadata`.
extension PipeWireConfiguredDefaults {

    /// The path of `executable`: itself when it has a `/`, else the first executable file of
    /// that name in `PATH` (the environment's, else this process's, else the usual one).
    static func locate(_ executable: String, in environment: [String: String]) throws(Failure) -> String {
        if executable.contains("/") {
            guard ExecutableSearch.isExecutableFile(executable) else { throw .toolMissing(executable: executable, searched: []) }
            return executable
        }
        let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = ExecutableSearch.directories(inPath: path)
        guard let found = ExecutableSearch.find(executable, in: directories) else {
            throw .toolMissing(executable: executable, searched: directories)
        }
        return found
    }
}
