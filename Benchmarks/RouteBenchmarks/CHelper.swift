import Foundation
import ProcessRunner

/// The benchmark's C helpers in `Benchmarks/Helpers` (small libpulse clients): taken prebuilt
/// from beside this executable when there (`scripts/bench-latency` puts them there, so that a
/// root without a C compiler can run them), compiled with the system's C compiler otherwise.
enum CHelper {
    /// The folder of the C sources, beside this source folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers").path

    /// The helper `name` (`Helpers/NAME.c`): the prebuilt one beside this executable, or one
    /// compiled into `directory`; throws with the compiler's output when it cannot be built.
    static func binary(_ name: String, in directory: String) async throws -> String {
        let prebuilt = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: prebuilt) { return prebuilt }
        let source = folder + "/" + name + ".c"
        let binary = directory + "/" + name
        let compiler = try await ChildProcess.run(["/usr/bin/env", "cc", "-O2", "-o", binary, source, "-lpulse"],
                                                  environment: ProcessInfo.processInfo.environment, timeLimit: .seconds(120))
        guard compiler.termination == .exited(0) else {
            throw BenchError("cc could not build \(source) (is libpulse-dev installed?), \(compiler.termination):\n"
                             + compiler.standardOutput + compiler.standardError)
        }
        return binary
    }
}
