import RouteKit
import RouteKitDBus

/// The daemon's D-Bus API's way to its preferences: `SetPreferences` and `ClearPreferences`
/// go through ``DaemonPreferences``, as ``EngineRoutingControl`` does, so run-time preferences
/// are kept in the state file and clearing brings back the configured ones.
struct StateFilePreferenceKeeper: PreferenceKeeper {
    /// The daemon's preference list and its state file.
    let preferences: DaemonPreferences

    /// Keeps (or forgets) the run-time list, then applies the list in force.
    func setRunTime(_ list: [AudioPreference]?, on manager: AudioDeviceManager) async {
        await preferences.setRunTime(list)
        await preferences.apply(to: manager)
    }

    /// ``PreferenceOrigin``'s raw value.
    var origin: String { preferences.origin.rawValue }
}
