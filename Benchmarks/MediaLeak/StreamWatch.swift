import PulseAudio

/// Watches one stream through the observer's connection from before an unplug: when the
/// observer first read it on the loudspeaker, first read it muted, and first read it unmuted
/// after that. Each instant is that of
/// the change event whose reading showed it (so the reading's own round trip is not in it).
final class StreamWatch: Sendable {
    private struct Seen: Sendable {
        var moved: ContinuousClock.Instant?
        var muted: ContinuousClock.Instant?
        var unmuted: ContinuousClock.Instant?
    }

    private let seen = Shared(Seen())
    private let task: Task<Void, Never>

    /// Starts watching `stream` (a sink input index); `speaker` is the loudspeaker's sink index.
    init(observer: PulseClient, stream: UInt32, speaker: UInt32?) {
        let events = observer.events()
        let seen = self.seen
        task = Task {
            for await event in events {
                let arrived = ContinuousClock.now
                guard case .subscription(let change) = event, change.facility == .sinkInput, change.index == stream,
                      change.kind != .remove else { continue }
                guard let input = try? await observer.sinkInput(at: stream) else { continue }
                seen.withLock { seen in
                    if seen.moved == nil, input.sink == speaker { seen.moved = arrived }
                    if seen.muted == nil, input.isMuted { seen.muted = arrived }
                    if seen.muted != nil, seen.unmuted == nil, !input.isMuted { seen.unmuted = arrived }
                }
            }
        }
    }

    /// Stops watching; returns what was seen.
    func finish() async -> (moved: ContinuousClock.Instant?, muted: ContinuousClock.Instant?, unmuted: ContinuousClock.Instant?) {
        task.cancel()
        await task.value
        return seen.withLock { ($0.moved, $0.muted, $0.unmuted) }
    }
}
