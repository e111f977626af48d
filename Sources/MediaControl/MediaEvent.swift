/// Why RouteKit holds media: what it pauses and mutes, it holds for one of these.
public enum MediaHoldReason: Hashable, Sendable, CustomStringConvertible {
    /// The private output the media played on went away (its sink was removed, or its port
    /// became unavailable): the sink's name.
    case outputLost(String)
    /// Call audio is on.
    case call

    /// "the output NAME went away" or "call audio".
    public var description: String {
        switch self {
        case .outputLost(let sink): "\(sink) went away"
        case .call: "call audio"
        }
    }
}

/// What media pausing did, for logs, `routectl monitor` and the D-Bus API.
public enum MediaEvent: Hashable, Sendable {
    /// The guard has read the server's streams, the device model and every source's players:
    /// it acts on all of them from now on.
    case ready
    /// A player the guard may pause appeared, or its status changed: as it is now.
    case player(MediaPlayer)
    /// Players asked to pause and streams muted until they do. `unmatchedStreams` are
    /// streams no player was found for (by process id): they stay muted for
    /// ``MediaSettings/unmatchedMuteDuration`` only.
    case held(reason: MediaHoldReason, players: [String], streams: [UInt32], unmatchedStreams: [UInt32])
    /// Muted streams unmuted: their player paused, they corked or went, or their time is up.
    case released(streams: [UInt32])
    /// Players RouteKit paused, asked to play again: a private output is back, or the call ended.
    case resumed(reason: MediaHoldReason, players: [String])
    /// Players RouteKit paused that it will not resume: someone played or stopped them since,
    /// they went away, or the resume window passed.
    case forgotten(players: [String])
    /// A request to a player or the server failed.
    case failed(String)
}
