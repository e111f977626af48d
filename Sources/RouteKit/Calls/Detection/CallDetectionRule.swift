/// Which streams make a call, and how long they must last: what ``StreamCallDetector`` and
/// ``CallDetectionMachine`` decide by.
///
/// A stream *takes part in calls* when its `media.role` is one of ``roles`` (compared without
/// case: PulseAudio clients say `phone`, PipeWire's own clients `Communication`), or its
/// `application.name` is one of ``applicationNames``, or its `application.process.binary` one
/// of ``processBinaries`` (for softphones that set no role). A call is a playback and a
/// capture stream that both take part, of the same application; it starts once both have run
/// for ``minimumDuration`` and ends once either side has been gone for ``hold``.
/// Docs/CallDetection.md explains the choices and the defaults.
public struct CallDetectionRule: Hashable, Sendable {
    /// The `media.role` values that mark a call's streams, lowercased.
    public var roles: Set<String>
    /// `application.name` values whose streams take part whatever their role: WebRTC engines
    /// and softphones that set none (`"ZOOM VoiceEngine"`, `"WEBRTC VoiceEngine"`). Browsers
    /// use one name for playback and another for capture (`"Chromium"`, `"Chromium input"`):
    /// list both.
    public var applicationNames: Set<String>
    /// `application.process.binary` values whose streams take part whatever their role.
    public var processBinaries: Set<String>
    /// How long a playback and a capture stream must both have run before they are a call:
    /// an application that opens its microphone for a moment to probe it is not in a call.
    public var minimumDuration: Duration
    /// How long a call outlives the last stream of one of its sides: a stream that the server
    /// relinks (removed and added again) or moves during a device switch comes back within it.
    public var hold: Duration

    /// `phone` and `communication` roles, no application named, a call after 750 ms of both
    /// streams, ended 2 s after a side goes.
    public init(roles: Set<String> = ["phone", "communication"], applicationNames: Set<String> = [],
                processBinaries: Set<String> = [], minimumDuration: Duration = .milliseconds(750),
                hold: Duration = .seconds(2)) {
        self.roles = Set(roles.map { $0.lowercased() })
        self.applicationNames = applicationNames
        self.processBinaries = processBinaries
        self.minimumDuration = minimumDuration
        self.hold = hold
    }

    /// Whether a stream with `properties` takes part in calls.
    public func matches(_ properties: [String: String]) -> Bool {
        if let role = properties["media.role"], roles.contains(role.lowercased()) { return true }
        if let name = properties["application.name"], applicationNames.contains(name) { return true }
        if let binary = properties["application.process.binary"], processBinaries.contains(binary) { return true }
        return false
    }
}
