/// Which playing streams belong to calls: media pausing never mutes or pauses them (a headset
/// that fails mid-call must not silence the call on its fallback), and a call's hold on
/// media leaves them alone. They follow the call route at once.
///
/// A stream is a call's when any of these says so:
/// - its `media.role` is one of ``roles`` (compared without case): `phone` is the role that
///   PulseAudio's module-role-cork, module-role-ducking and module-bluetooth-policy take for
///   calls, and pipewire-pulse turns it into PipeWire's `Communication`, the role WirePlumber's
///   Bluetooth policy looks for; both are in the defaults;
/// - its `application.process.id` is one of ``processIDs``: the processes the engine knows
///   make calls (a call session's client), whatever their streams say;
/// - its `application.name` or `application.process.binary` is one of ``applications``:
///   softphones that set no role (WirePlumber keeps such a list, `media-role.applications`).
public struct CallStreams: Hashable, Sendable {
    /// `media.role` values of call streams, compared without case.
    public var roles: Set<String>
    /// Processes whose streams are calls'.
    public var processIDs: Set<UInt32>
    /// `application.name` or `application.process.binary` values of call applications.
    public var applications: Set<String>

    /// The roles a call stream has by default: PulseAudio's `phone` and PipeWire's `Communication`.
    public static let defaultRoles: Set<String> = ["phone", "communication"]

    /// Call streams by these roles, processes and applications; by default, the phone role only.
    public init(roles: Set<String> = CallStreams.defaultRoles, processIDs: Set<UInt32> = [], applications: Set<String> = []) {
        self.roles = roles
        self.processIDs = processIDs
        self.applications = applications
    }

    /// Whether a stream with these properties is a call's.
    func contains(role: String?, processID: UInt32?, applicationNames: [String]) -> Bool {
        if let role = role?.lowercased(), roles.contains(where: { $0.lowercased() == role }) { return true }
        if let processID, processIDs.contains(processID) { return true }
        return applicationNames.contains { applications.contains($0) }
    }
}
