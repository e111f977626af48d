import Foundation

/// Runs `body` with a new empty directory under the system's temporary folder, named after
/// `label`, and removes it afterwards whatever `body` does.
public func withTemporaryDirectory<Result>(_ label: String, _ body: (URL) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
