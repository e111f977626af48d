import RouteKit

/// What routectl's commands ask of whatever routes audio: the daemon when it runs (through
/// its D-Bus API; ``DaemonLocator`` finds it), else the sound server directly
/// (``DirectRoutingControl``). Inside the daemon, ``EngineRoutingControl`` does the same on
/// the running engine, for the D-Bus API to call.
///
/// Every method returns once the change is confirmed by the server (or, through the daemon,
/// once the engine has settled), and throws a ``RouteCtlFailure`` a person can act on, or the
/// server's `PulseError` (which the commands report as a refused request, exit 70).
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
    /// Makes the speakerphone the route (on), or leaves it for the device the preferences (or,
    /// without the daemon, the kinds a person carries) choose (off). Returns the route after.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice?
    /// Mutes or unmutes the default source; returns its name.
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
