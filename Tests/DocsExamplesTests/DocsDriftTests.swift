import Foundation
import ProcessRunner
import Testing

/// The docs' Swift blocks and the files this target compiles them from must not drift apart:
/// a block added, changed or removed in README.md or Docs/*.md without running
/// `scripts/extract-doc-examples` fails here, naming the files.
@Suite("The docs' Swift examples")
struct DocsDriftTests {
    /// The package's folder: this file is Tests/DocsExamplesTests/DocsDriftTests.swift.
    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("every ```swift block of README.md and Docs/*.md is in Tests/DocsExamplesTests/Examples/Generated, as it is in the doc")
    func committedExamplesMatchTheDocs() async throws {
        let script = Self.packageFolder.appendingPathComponent("scripts/extract-doc-examples").path
        let run = try await ChildProcess.run(["/usr/bin/env", "python3", script, "--check"],
                                             environment: ProcessInfo.processInfo.environment, timeLimit: .seconds(60))
        #expect(run.termination == .exited(0), "\(run.standardOutput)\(run.standardError)")
    }
}
