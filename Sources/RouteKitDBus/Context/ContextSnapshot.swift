/// What the daemon knows around the route: silent mode, the screen, media it holds, volume
/// capture. RouteKit1's context properties are this value, one property per field.
public struct ContextSnapshot: Hashable, Sendable {
    /// `silent`, `audible` or `unknown`: whether the default output is muted or at volume 0.
    public var silentMode: String
    /// `locked`, `unlocked` or `unknown`.
    public var screenLock: String
    /// `idle`, `active` or `unknown`.
    public var idle: String
    /// The players RouteKit paused and may resume (MPRIS bus names, or in-process names).
    public var pausedPlayers: [String]
    /// Whether volume-button capture is on.
    public var volumeCapture: Bool

    /// A snapshot from its parts; by default nothing is known.
    public init(silentMode: String = "unknown", screenLock: String = "unknown", idle: String = "unknown",
                pausedPlayers: [String] = [], volumeCapture: Bool = false) {
        self.silentMode = silentMode
        self.screenLock = screenLock
        self.idle = idle
        self.pausedPlayers = pausedPlayers
        self.volumeCapture = volumeCapture
    }
}

/// Something the context tells the daemon's D-Bus API.
public enum ContextNotice: Hashable, Sendable {
    /// The context changed: the properties follow.
    case changed(ContextSnapshot)
    /// A volume button was pressed while capture was on: `up`, `down` or `mute`.
    case volumeButton(String)
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
