import Foundation
import ProcessRunner

/// A built executable of this package, run as a user would run it.
struct Executable {
    var url: URL

    /// `name` from the build folder the tests run from.
    static func built(_ name: String) throws -> Executable {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var candidates = [testBinary.deletingLastPathComponent()]
        // swift test may run the tests from inside an .xctest bundle folder.
        candidates.append(testBinary.deletingLastPathComponent().deletingLastPathComponent())
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return Executable(url: url) }
        }
        throw MissingExecutable(name: name, searched: candidates.map(\.path))
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String { "\(name) is not built (looked in \(searched.joined(separator: ", ")))" }
    }

    struct Output: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs with `arguments` and the environment changed by `environment` (a nil value
    /// removes a variable); returns what it printed and its exit status (128 + n after
    /// signal n). Killed, and reported as a hang, if it runs longer than `timeLimit`.
    func run(_ arguments: [String], environment: [String: String?] = [:],
             timeLimit: Duration = .seconds(60)) async throws -> Output {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let run = try await ChildProcess.run([url.path] + arguments, environment: merged, timeLimit: timeLimit)
        if run.timedOut {
            throw TimedOut(what: "\(url.lastPathComponent) \(arguments.joined(separator: " ")) to exit",
                           written: run.standardError.split(separator: "\n").map(String.init))
        }
        return Output(status: run.termination.shellStatus,
                      standardOutput: run.standardOutput,
                      standardError: run.standardError)
    }
}
