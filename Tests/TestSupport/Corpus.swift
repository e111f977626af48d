import Foundation

/// The repository's corpus of real dumps, `Tests/Corpus/` (its README gives the label
/// convention). Tests read it from the checkout, so they need nothing outside the repository.
public enum Corpus {
    /// `Tests/Corpus`, found from this file's place (`Tests/TestSupport/Corpus.swift`).
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Corpus")

    /// The names of the corpus's dump files (`NN_*.txt`), sorted.
    public static func names() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") && $0.first?.isNumber == true }.sorted()
    }

    /// The path of the corpus file `name`.
    public static func path(of name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
