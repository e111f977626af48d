/// A change among the players a ``MediaPlayerControl`` follows.
public enum MediaPlayerEvent: Hashable, Sendable {
    /// A player appeared, as it is.
    case appeared(MediaPlayer)
    /// A player changed: its status or what it can do.
    case changed(MediaPlayer)
    /// The player of that name went away.
    case vanished(name: String)
}
