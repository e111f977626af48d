import MediaControl
import TestSupport

/// Every event a ``MediaGuard`` announced, in order, and waits on them.
typealias MediaEventLog = RecordedEvents<MediaEvent>

extension RecordedEvents where Event == MediaEvent {
    /// Runs `mediaGuard` while `body` runs, recording what it announces, and once it is
    /// ready (it has read the server and the device model); stops it after, which unmutes
    /// what it holds.
    static func running(_ mediaGuard: MediaGuard, _ body: @escaping @Sendable (MediaEventLog) async throws -> Void) async throws {
        let log = MediaEventLog()
        let events = mediaGuard.events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await event in events { await log.append(event) } }
            group.addTask { await mediaGuard.run() }
            try await log.wait("the guard ready") { $0.contains(.ready) }
            try await body(log)
            group.cancelAll()
        }
    }
}
