/// What the media machine asks its driver to do.
enum MediaAction: Hashable, Sendable {
    /// Mute the playing stream (sink input) at this index.
    case mute(UInt32)
    /// Unmute it.
    case unmute(UInt32)
    /// Ask the player of that name to pause.
    case pause(String)
    /// Ask it to play.
    case play(String)
    /// Tell the guard's listeners.
    case emit(MediaEvent)
}
