import PulseAudio
import RouteKit

/// Waits, event by event, for the server to show something: reads the server once, then
/// again after each change it announces, until `isDone` holds; gives up after `timeout`.
/// Subscribe (`events`) before sending the requests whose outcome is awaited, so that no
/// change is missed.
enum ServerWaiting {
    /// The view in which `isDone` held, or nil after `timeout`.
    static func view(on server: any AudioServer, events: AsyncStream<PulseEvent>, timeout: Duration = .seconds(5),
                     until isDone: @escaping @Sendable (ServerView) -> Bool) async throws -> ServerView? {
        try await withThrowingTaskGroup(of: ServerView?.self) { group in
            group.addTask {
                let first = try await ServerView.read(from: server)
                if isDone(first) { return first }
                for await event in events {
                    guard case .subscription = event else { continue }
                    let view = try await ServerView.read(from: server)
                    if isDone(view) { return view }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
