import RouteKit

/// What media pausing does, and for how long it waits. The defaults are iOS's behaviour.
public struct MediaSettings: Hashable, Sendable {
    /// Whether media is paused when the private output it plays on goes away.
    public var pausesOnUnplug: Bool
    /// The kinds of output that count as private: losing one pauses what played on it.
    public var privateKinds: Set<AudioDeviceKind>
    /// How long after pausing a player RouteKit may still resume it when a private output
    /// comes back; later, it stays paused (iOS does not resume after long either).
    public var resumeWindow: Duration
    /// How long a stream that went public with no player to pause stays muted: it sounds on
    /// the loudspeaker after that.
    public var unmatchedMuteDuration: Duration
    /// How long a stream whose player said it paused stays muted at most if it never corks
    /// (a player that pauses by writing silence).
    public var pauseGrace: Duration
    /// Whether call audio pauses players and mutes other music and video while it is on.
    public var holdsMediaDuringCalls: Bool

    /// Settings with these values; the defaults pause on unplug of Bluetooth and wired
    /// headsets, resume within 3 minutes, and hold media during calls.
    public init(pausesOnUnplug: Bool = true, privateKinds: Set<AudioDeviceKind> = [.bluetooth, .wiredHeadset],
                resumeWindow: Duration = .seconds(180), unmatchedMuteDuration: Duration = .seconds(2),
                pauseGrace: Duration = .milliseconds(500), holdsMediaDuringCalls: Bool = true) {
        self.pausesOnUnplug = pausesOnUnplug
        self.privateKinds = privateKinds
        self.resumeWindow = resumeWindow
        self.unmatchedMuteDuration = unmatchedMuteDuration
        self.pauseGrace = pauseGrace
        self.holdsMediaDuringCalls = holdsMediaDuringCalls
    }
}
