/// What one source says now.
public struct SourceAnswer: Hashable, Sendable {
    /// Who says it.
    public var source: ScreenLockSource
    /// Whether it says the screen is locked: logind's `LockedHint`, or a screensaver being active.
    public var locked: Bool
    /// Whether it says the user is idle: logind's `IdleHint`; nil for sources that do not say.
    public var idle: Bool?

    /// An answer from its parts.
    public init(source: ScreenLockSource, locked: Bool, idle: Bool?) {
        self.source = source
        self.locked = locked
        self.idle = idle
    }
}
