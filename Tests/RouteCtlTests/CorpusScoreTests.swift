import Foundation
import Testing
import TestSupport

/// The classifier as a user meets it: `routectl list --from-dump --json` on every real dump of
/// the corpus, each `expected:` label read literally by `scripts/corpus-score`.
@Suite("Corpus score")
struct CorpusScoreTests {
    @Test("routectl gets every label of the corpus right")
    func everyLabel() async throws {
        let routectl = try Executable.built("routectl")
        let script = Corpus.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/corpus-score").path
        let python = try Executable(url: #require(["/usr/bin/python3", "/usr/local/bin/python3"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }.map(URL.init(fileURLWithPath:))))
        let result = try await python.run([script, routectl.url.path, Corpus.directory.path, "-v"],
                                          environment: ["MIN_PCT": "100"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("100.0%"), "\(result.standardOutput)")
    }
}
