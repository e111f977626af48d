import ConcurrencySupport
@testable import MediaControl
import Testing

/// Pause and Play reach each player in the order decided, even when a command is slow to go.
@Suite("Player command lanes")
struct PlayerCommandLanesTests {
    /// A player source whose Pause waits until let go; it records what each player received.
    final class SlowPauses: MediaPlayerControl {
        let received = LockedValue<[String]>([])
        let (pauseGate, letPausesGo) = AsyncStream.makeStream(of: Void.self)
        func players() async -> [MediaPlayer] { [] }
        func events() -> AsyncStream<MediaPlayerEvent> { AsyncStream { $0.finish() } }
        func pause(_ name: String) async throws {
            for await _ in pauseGate { break }
            received.withLock { $0.append("pause \(name)") }
        }
        func play(_ name: String) async throws {
            received.withLock { $0.append("play \(name)") }
        }
    }

    @Test("a Play sent after a slow Pause arrives after it; another player's command does not wait")
    func inOrderPerPlayer() async throws {
        let source = SlowPauses()
        await withDiscardingTaskGroup { group in
            var lanes = PlayerCommandLanes()
            lanes.send(play: false, to: "music", through: source, group: &group) { _ in }
            lanes.send(play: true, to: "music", through: source, group: &group) { _ in }
            lanes.send(play: true, to: "video", through: source, group: &group) { _ in }
            // The other player's Play goes while the music's Pause still waits.
            while !source.received.withLock({ $0.contains("play video") }) { await Task.yield() }
            #expect(source.received.withLock { $0 } == ["play video"])
            source.letPausesGo.yield()
            while source.received.withLock({ $0.count }) < 3 { await Task.yield() }
            #expect(source.received.withLock { $0 } == ["play video", "pause music", "play music"])
            lanes.finish()
        }
    }
}
