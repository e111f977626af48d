import ConcurrencySupport
import PulseAudio
import TestSupport

/// Every mute state a stream was seen in, as a second connection reads it after each of its
/// stream events: whether RouteKit muted it at any moment, however briefly it held.
final class MuteWatch: Sendable {
    private let seen = LockedValue<[Bool]>([])

    /// The states seen so far, in order.
    var states: [Bool] { seen.withLock { $0 } }

    /// Whether it was ever seen muted.
    var everMuted: Bool { states.contains(true) }

    /// Follows the stream of process `processID` on `observer` while `body` runs.
    static func watching<Result: Sendable>(_ processID: Int32, on observer: PulseClient,
                                           _ body: @Sendable (MuteWatch) async throws -> Result) async throws -> Result {
        let watch = MuteWatch()
        let events = observer.events()
        let pid = String(processID)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    guard case .subscription(let change) = event, change.facility == .sinkInput else { continue }
                    guard let stream = try? await observer.sinkInputs().first(where: { $0.properties["application.process.id"] == pid })
                    else { continue }
                    watch.seen.withLock { $0.append(stream.isMuted) }
                }
            }
            defer { group.cancelAll() }
            return try await body(watch)
        }
    }
}
