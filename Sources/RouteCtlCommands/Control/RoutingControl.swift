import RouteKit

/// What routectl's commands ask of whatever routes audio: the daemon when it runs (through
/// its D-Bus API; ``DaemonLocator`` finds it), else one run of the same engine on the sound
/// server (``DirectRoutingControl``). Inside the daemon, ``EngineRoutingControl`` does the same
/// on the running engine. Either way the route machine decides: the answers are the same.
///
/// Every method returns once the change is confirmed by the server (or the engine has
/// settled), and throws a ``RouteCtlFailure`` a person can act on, or the server's
/// `PulseError` (which the commands report as a refused request, exit 70).
protocol RoutingControl: Sendable {
    /// Who answers, for the commands' messages.
    var answerer: RoutingAnswerer { get }
    /// Switches to the device or kind `target` names now; through the daemon the choice is
    /// kept while the device is present. Returns the device audio goes to.
    func use(_ target: String) async throws -> AudioDevice
    /// Lets go of the device chosen with ``use(_:)``: the preferences decide again. Returns
    /// whether a choice was kept (only the daemon keeps one).
    func clearSelection() async throws -> Bool
    /// Replaces the preferences set at run time (kinds or device ids, best first).
    func setPreferences(_ entries: [String]) async throws
    /// Forgets the preferences set at run time: the configured ones apply again.
    func clearPreferences() async throws
    /// Turns call audio on or off; returns whether anything changed.
    func setCallAudio(_ isOn: Bool) async throws -> Bool
    /// The engine's speaker toggle: a speakerphone (on), or the best device of the call list
    /// that is not one (off). Returns the route after.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice?
    /// Mutes or unmutes the microphone the route records from; returns its name.
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String
    /// Where audio goes, why, the preferences and call audio.
    func status() async throws -> RoutingStatus
}

/// Who carries out routectl's commands.
enum RoutingAnswerer: String, Sendable, Equatable {
    /// The running `routectl daemon`.
    case daemon
    /// The sound server itself: no daemon runs.
    case soundServer
}
