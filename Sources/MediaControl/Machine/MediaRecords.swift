import PulseAudio

/// An output as the media machine knows it: enough to tell whether it is private and whether
/// its port went unavailable.
struct SinkRecord: Hashable, Sendable {
    var index: UInt32
    var name: String
    var activePort: String?
    var portAvailability: [String: PortAvailability]

    init(_ sink: SinkInfo) {
        index = sink.index
        name = sink.name
        activePort = sink.activePortName
        portAvailability = Dictionary(sink.ports.map { ($0.name, $0.availability) }, uniquingKeysWith: { first, _ in first })
    }

    init(index: UInt32, name: String, activePort: String? = nil, portAvailability: [String: PortAvailability] = [:]) {
        self.index = index
        self.name = name
        self.activePort = activePort
        self.portAvailability = portAvailability
    }
}

/// A playing stream (sink input) as the media machine knows it.
struct StreamRecord: Hashable, Sendable {
    var index: UInt32
    var sink: UInt32
    var processID: UInt32?
    var role: String?
    /// Its `application.name` and `application.process.binary`, as far as it has them.
    var applicationNames: [String] = []
    var isCorked: Bool
    var isMuted: Bool
    /// The private sink it was moved away from, and when: if that sink goes right after, the
    /// server moved the stream because it was going.
    var movedFrom: (sink: UInt32, at: ContinuousClock.Instant)?

    init(_ stream: SinkInputInfo) {
        index = stream.index
        sink = stream.sink
        processID = stream.properties["application.process.id"].flatMap { UInt32($0) }
        role = stream.properties["media.role"]
        applicationNames = ["application.name", "application.process.binary"].compactMap { stream.properties[$0] }
        isCorked = stream.isCorked
        isMuted = stream.isMuted
    }

    /// `stream` as read now, given the record it had: a stream linked to no sink is corked by
    /// that alone, which says nothing of where it plays or whether its client paused it, so it
    /// keeps the sink and cork it had (seen on a connection just renewed, whose copy had not
    /// linked the stream yet: taken as read, the stream would leave the sink it plays on, and
    /// that sink's going would expose nothing). Where it lands next is read when it is linked.
    init(_ stream: SinkInputInfo, previous: StreamRecord?) {
        self.init(stream)
        if !stream.isLinked, let previous {
            sink = previous.sink
            isCorked = previous.isCorked
        }
    }

    init(index: UInt32, sink: UInt32, processID: UInt32? = nil, role: String? = nil, isCorked: Bool = false, isMuted: Bool = false) {
        self.index = index
        self.sink = sink
        self.processID = processID
        self.role = role
        self.isCorked = isCorked
        self.isMuted = isMuted
    }

    /// Whether it is sounding: not corked, not muted.
    var isAudible: Bool { !isCorked && !isMuted }

    /// Whether its role is media's (music or video): held during calls whoever plays it.
    var isMedia: Bool { role.map { ["music", "video"].contains($0) } ?? false }

    /// Whether `calls` counts it as a call's stream.
    func isCall(by calls: CallStreams) -> Bool {
        calls.contains(role: role, processID: processID, applicationNames: applicationNames)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.index == rhs.index && lhs.sink == rhs.sink && lhs.processID == rhs.processID && lhs.role == rhs.role
            && lhs.applicationNames == rhs.applicationNames && lhs.isCorked == rhs.isCorked && lhs.isMuted == rhs.isMuted
            && lhs.movedFrom?.sink == rhs.movedFrom?.sink && lhs.movedFrom?.at == rhs.movedFrom?.at
    }

    func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

/// A stream RouteKit muted, and until when.
struct StreamHold: Hashable, Sendable {
    var reason: MediaHoldReason
    /// The player that plays it, when one was found.
    var player: String?
    /// When to unmute it even if nothing else happened; nil: only when its player pauses,
    /// it corks or goes, or (a call's hold) the call ends.
    var releaseAt: ContinuousClock.Instant?
    /// Whether the server has shown the stream muted since: before that, a lookup that still
    /// shows it unmuted is older than the mute, not someone unmuting it.
    var isConfirmed = false
    /// How many times it was muted again after it was shown unmuted while held.
    var remutes = 0
}

/// A player RouteKit paused.
struct PausedPlayer: Hashable, Sendable {
    var reason: MediaHoldReason
    var at: ContinuousClock.Instant
    /// Whether it has been seen paused since: any change after that is someone else's.
    var sawPause: Bool
    /// Whether to ask it to play as soon as its pause is seen: the reason to pause went before
    /// the pause landed (the output's media found another private output).
    var resumesOnPause = false
}

/// One output, by sink name and port (nil: a sink without ports), as the device model lists it.
struct OutputKey: Hashable, Sendable {
    var sink: String
    var port: String?
}
