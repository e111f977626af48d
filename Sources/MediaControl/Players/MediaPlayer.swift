/// A media player that RouteKit can pause and resume: an MPRIS player on the session bus, or
/// one the application registers in-process.
public struct MediaPlayer: Hashable, Sendable, Identifiable {
    /// The name it is known by: `org.mpris.MediaPlayer2.mpv` for an MPRIS player.
    public var name: String
    /// The process it runs in, when known: matched against a stream's
    /// `application.process.id` to find which player plays which stream.
    public var processID: UInt32?
    /// What it calls itself, for people (MPRIS `Identity`), when known.
    public var identity: String?
    /// Playing, paused or stopped.
    public var status: PlaybackStatus
    /// Whether it says it can pause (MPRIS `CanPause`).
    public var canPause: Bool
    /// Whether it says it can play (MPRIS `CanPlay`).
    public var canPlay: Bool

    /// Its name.
    public var id: String { name }

    /// A player as it is now.
    public init(name: String, processID: UInt32? = nil, identity: String? = nil, status: PlaybackStatus,
                canPause: Bool = true, canPlay: Bool = true) {
        self.name = name
        self.processID = processID
        self.identity = identity
        self.status = status
        self.canPause = canPause
        self.canPlay = canPlay
    }
}

/// What a player is doing: MPRIS `PlaybackStatus`.
public enum PlaybackStatus: String, Hashable, Sendable, CaseIterable {
    /// Playing.
    case playing = "Playing"
    /// Paused: `Play` resumes where it was.
    case paused = "Paused"
    /// Stopped.
    case stopped = "Stopped"
}
