import RouteKitDBus
import RouteKit
import RouteKitDaemon

/// Where audio goes and why, as `routectl status` shows it: the route, the input, the reason
/// in a person's words, the preferences and where they come from, and call audio.
struct RoutingStatus: Equatable, Sendable {
    /// Who routes: the daemon, or nobody (the server's own defaults).
    var answerer: RoutingAnswerer
    /// The device audio goes to.
    var output: AudioDevice?
    /// The source recorded from (the default source), and its device when it belongs to one.
    var inputSource: String?
    /// The device of ``inputSource``.
    var inputDevice: AudioDevice?
    /// Why audio goes there, in a person's words (``RouteExplanation``).
    var why: String
    /// The preferences, best first, as written.
    var preferences: [String]
    /// Where the preferences come from.
    var preferencesOrigin: PreferenceOrigin
    /// The device chosen by hand (`routectl use`), while the daemon keeps it.
    var selection: String?
    /// Whether call audio is on.
    var isCallAudioOn: Bool
    /// Whether the default source is muted; nil when there is none.
    var isMicrophoneMuted: Bool?
    /// The daemon's process id, when the daemon answers and the bus tells it.
    var daemonProcessID: UInt32? = nil
    /// The screen, media held and volume capture, as the daemon knows them; nil without it.
    var context: ContextSnapshot? = nil
}
