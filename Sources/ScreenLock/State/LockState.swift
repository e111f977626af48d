/// Whether the screen is locked, as the sources that answer say.
public enum LockState: String, Hashable, Sendable, CustomStringConvertible {
    /// At least one source says the screen is locked.
    case locked
    /// Every source that answers says it is not.
    case unlocked
    /// No source answers: no logind session and no screensaver could be read.
    case unknown

    /// `locked`, `unlocked` or `unknown`.
    public var description: String { rawValue }
}
