import DBus
import Foundation
import Testing

/// Waiting for a bus's socket file without polling.
@Suite("waiting for a bus socket")
struct SocketWatchTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a file created while waiting ends the wait")
    func appears() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let waiting = Task { try await SocketWatch.waitUntilPresent(folder + "/bus") }
        #expect(FileManager.default.createFile(atPath: folder + "/bus", contents: nil))
        // Depending on who was first, the watcher saw it come or found it there.
        let outcome = try await waiting.value
        #expect(outcome == .appeared || outcome == .alreadyPresent)
        #expect(try await SocketWatch.waitUntilPresent(folder + "/bus") == .alreadyPresent)
    }

    @Test("a folder that does not exist cannot be watched; a wait for a file that never comes ends when cancelled")
    func unwatchableAndCancelled() async throws {
        #expect(try await SocketWatch.waitUntilPresent("/nonexistent/routekit/bus") == .cannotWatch)
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let waiting = Task { try await SocketWatch.waitUntilPresent(folder + "/never") }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
