/// Whether the screen is locked and the user idle, combined from every source that answers.
///
/// The rule, over the answers in order of preference (logind first, then the screensavers in
/// ``ScreenSaverService/all``'s order):
/// - **lock**: ``LockState/locked`` if any answer says locked (a locker that forgot to set
///   logind's hint still counts, and so does a hint set by a locker with no screensaver
///   interface); else ``LockState/unlocked`` if any source answers; else ``LockState/unknown``.
/// - **idle**: true if any answer says idle; else false if any answer says not idle; else nil
///   (only logind says, so nil also when logind does not answer).
/// - **sources**: the first answer that says what the verdict is, for each of the two.
public struct ScreenLockState: Hashable, Sendable, CustomStringConvertible {
    /// Locked, unlocked, or unknown.
    public var lock: LockState
    /// Whether the user is idle; nil when no source says.
    public var idle: Bool?
    /// The source the lock verdict comes from; nil when it is unknown.
    public var lockSource: ScreenLockSource?
    /// The source the idle verdict comes from; nil when it is unknown.
    public var idleSource: ScreenLockSource?

    /// A state from its parts.
    public init(lock: LockState, idle: Bool?, lockSource: ScreenLockSource?, idleSource: ScreenLockSource?) {
        self.lock = lock
        self.idle = idle
        self.lockSource = lockSource
        self.idleSource = idleSource
    }

    /// Nothing answers.
    public static let unknown = ScreenLockState(lock: .unknown, idle: nil, lockSource: nil, idleSource: nil)

    /// The state `answers` (in order of preference) make, by the rule above.
    public init(combining answers: [SourceAnswer]) {
        if let locking = answers.first(where: \.locked) {
            (lock, lockSource) = (.locked, locking.source)
        } else if let first = answers.first {
            (lock, lockSource) = (.unlocked, first.source)
        } else {
            (lock, lockSource) = (.unknown, nil)
        }
        if let idling = answers.first(where: { $0.idle == true }) {
            (idle, idleSource) = (true, idling.source)
        } else if let active = answers.first(where: { $0.idle == false }) {
            (idle, idleSource) = (false, active.source)
        } else {
            (idle, idleSource) = (nil, nil)
        }
    }

    /// `locked (logind session 2 …), idle unknown`.
    public var description: String {
        let lockText = lockSource.map { "\(lock) (\($0))" } ?? "\(lock)"
        let idleText = switch idle {
        case true?: "idle"
        case false?: "not idle"
        case nil: "idle unknown"
        }
        return "\(lockText), \(idleText)"
    }
}
