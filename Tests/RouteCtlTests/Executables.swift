import Foundation

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
    /// removes a variable); returns what it printed and its exit status.
    func run(_ arguments: [String], environment: [String: String?] = [:]) async throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so that a large output cannot block.
        async let outData = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        async let errData = Task.detached { error.fileHandleForReading.readDataToEndOfFile() }.value
        let (out, err) = await (outData, errData)
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: out, as: UTF8.self),
                      standardError: String(decoding: err, as: UTF8.self))
    }
}
