/// What the daemon knows around the route: silent mode, the screen, media it holds, volume
/// capture. RouteKit1's context properties are this value, one property per field.
public struct ContextSnapshot: Hashable, Sendable {
    /// Whether the default output is muted or at volume 0.
    public var silentMode: Silence
    /// Whether the screen is locked.
    public var screenLock: Lock
    /// Whether the user is idle.
    public var idle: Activity
    /// The players RouteKit paused and may resume (MPRIS bus names, or in-process names).
    public var pausedPlayers: [String]
    /// Whether volume-button capture is on.
    public var volumeCapture: Bool

    /// A snapshot from its parts; by default nothing is known.
    public init(silentMode: Silence = .unknown, screenLock: Lock = .unknown, idle: Activity = .unknown,
                pausedPlayers: [String] = [], volumeCapture: Bool = false) {
        self.silentMode = silentMode
        self.screenLock = screenLock
        self.idle = idle
        self.pausedPlayers = pausedPlayers
        self.volumeCapture = volumeCapture
    }

    /// The `SilentMode` property: whether the default output is muted or at volume 0.
    public enum Silence: String, Hashable, Sendable, CaseIterable {
        /// Muted or at volume 0.
        case silent
        /// Heard.
        case audible
        /// No default output, or not read yet.
        case unknown

        /// `silent` for true, `audible` for false, `unknown` for nil.
        public init(isSilent: Bool?) {
            self = isSilent.map { $0 ? .silent : .audible } ?? .unknown
        }
    }

    /// The `ScreenLock` property.
    public enum Lock: String, Hashable, Sendable, CaseIterable {
        /// Locked.
        case locked
        /// Unlocked.
        case unlocked
        /// Nothing answers (no logind session, no screensaver).
        case unknown
    }

    /// The `Idle` property.
    public enum Activity: String, Hashable, Sendable, CaseIterable {
        /// The session says the user is idle.
        case idle
        /// The session says the user is active.
        case active
        /// Nothing says.
        case unknown

        /// `idle` for true, `active` for false, `unknown` for nil.
        public init(isIdle: Bool?) {
            self = isIdle.map { $0 ? .idle : .active } ?? .unknown
        }
    }
}

/// A volume button pressed while capture is on, as `VolumeButtonPressed` names it.
public enum VolumeButtonPress: String, Hashable, Sendable, CaseIterable {
    /// Volume up.
    case up
    /// Volume down.
    case down
    /// Mute.
    case mute
}

/// Something the context tells the daemon's D-Bus API.
public enum ContextNotice: Hashable, Sendable {
    /// The context changed: the properties follow.
    case changed(ContextSnapshot)
    /// A volume button was pressed while capture was on.
    case volumeButton(VolumeButtonPress)
    /// Players were paused (and their streams muted) for `reason`.
    case mediaPaused(players: [String], reason: String)
    /// Players RouteKit paused were asked to play again.
    case mediaResumed(players: [String], reason: String)
}

/// The daemon's context monitors and media pausing, as the D-Bus API sees them.
public protocol ContextControl: Sendable {
    /// The context now.
    var snapshot: ContextSnapshot { get }
    /// Every change and notice from now on.
    func notices() -> AsyncStream<ContextNotice>
    /// Turns volume-button capture on or off; returns once it is (or throws why not).
    func setVolumeCapture(_ isOn: Bool) async throws
}

/// No context: what a daemon without monitors answers (every property `unknown`).
public struct NoContext: ContextControl {
    /// Nothing.
    public init() {}
    /// Nothing known.
    public var snapshot: ContextSnapshot { ContextSnapshot() }
    /// A stream that never says anything and ends at once.
    public func notices() -> AsyncStream<ContextNotice> { AsyncStream { $0.finish() } }
    /// Refused: there is nothing to capture with.
    public func setVolumeCapture(_ isOn: Bool) async throws {
        throw ContextUnavailable()
    }

    /// The daemon runs no context monitors.
    public struct ContextUnavailable: Error, CustomStringConvertible {
        /// "this daemon runs no context monitors".
        public var description: String { "this daemon runs no context monitors" }
    }
}
