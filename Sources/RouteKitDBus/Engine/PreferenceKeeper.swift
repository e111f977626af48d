import RouteKit

/// Where the D-Bus API's `SetPreferences` and `ClearPreferences` go: whoever owns the
/// daemon's preference list. `routectl daemon` passes one that keeps run-time preferences in
/// its state file, so that `routectl prefer` and a D-Bus client share one behaviour.
public protocol PreferenceKeeper: Sendable {
    /// Sets the run-time preferences (a list) or forgets them (nil: the configured ones apply
    /// again), and hands the list in force to `manager`.
    func setRunTime(_ preferences: [AudioPreference]?, on manager: AudioDeviceManager) async
    /// Where the list in force comes from, as `Status` names it: `runTime`, `commandLine`,
    /// `configurationFile` or `none`. Read on the bus's thread (``DirectAnswer``): it must
    /// not wait.
    var origin: String { get }
}

/// A ``PreferenceKeeper`` that keeps nothing: the configured list is the one the manager had
/// when the driver was made, and clearing goes back to it.
public struct ConfiguredPreferences: PreferenceKeeper {
    /// The list `ClearPreferences` brings back.
    public let configured: [AudioPreference]

    /// A keeper that goes back to `configured`.
    public init(configured: [AudioPreference]) {
        self.configured = configured
    }

    /// Applies `preferences`, or ``configured`` for nil.
    public func setRunTime(_ preferences: [AudioPreference]?, on manager: AudioDeviceManager) async {
        await manager.setPreferences(preferences ?? configured)
    }

    /// Nothing is told apart here: `none` when nothing is configured, else `commandLine`.
    public var origin: String { configured.isEmpty ? "none" : "commandLine" }
}
