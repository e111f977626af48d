import RouteKit

/// Where ringtones and notifications sound while a call rings and a headset is in use.
public enum RingingPlacement: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Left where they play, on the headset (what a server does by itself).
    case headset
    /// Moved to the loudspeaker while the call rings, and back after.
    case speaker
    /// On the loudspeaker and the headset at once (a combined sink, loaded for the ringing
    /// and unloaded after): what Android does.
    case both

    /// The raw value.
    public var description: String { rawValue }
}

/// What ringing does with ring streams: where they go, and which streams ring.
public struct RingingSettings: Hashable, Sendable {
    /// Where ring streams sound while a call rings and a private output is in use.
    public var placement: RingingPlacement
    /// The `media.role` values of ring streams (`event` by default: ringtones and notifications).
    public var roles: Set<String>
    /// Applications whose playback rings, by `application.name` or `application.process.binary`.
    public var applications: Set<String>
    /// The kinds of output that count as a headset (the private ones of ``MediaSettings``).
    public var privateKinds: Set<AudioDeviceKind>

    /// Settings with these values; by default ring streams sound on the loudspeaker and the
    /// headset at once, as Android rings.
    public init(placement: RingingPlacement = .both, roles: Set<String> = ["event"], applications: Set<String> = [],
                privateKinds: Set<AudioDeviceKind> = MediaSettings().privateKinds) {
        self.placement = placement
        self.roles = roles
        self.applications = applications
        self.privateKinds = privateKinds
    }

    /// Whether a playback stream with these properties rings.
    public func rings(_ properties: [String: String]) -> Bool {
        if let role = properties["media.role"], roles.contains(role) { return true }
        return [properties["application.name"], properties["application.process.binary"]]
            .contains { $0.map(applications.contains) ?? false }
    }
}
