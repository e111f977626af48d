/// Players that media pausing can see and command: the MPRIS players of the session, or
/// players an application registers in-process.
public protocol MediaPlayerControl: Sendable {
    /// The players now.
    func players() async -> [MediaPlayer]
    /// Every change from now on, in order; the stream ends when the source closes.
    func events() -> AsyncStream<MediaPlayerEvent>
    /// Asks the player `name` to pause. Throws when it is gone or refuses.
    func pause(_ name: String) async throws
    /// Asks the player `name` to play. Throws when it is gone or refuses.
    func play(_ name: String) async throws
}
