import RouteKit
import RouteKitDBus

/// The daemon's D-Bus API's way to its preferences: `SetPreferences` and `ClearPreferences`
/// go through ``DaemonPreferences``, as ``EngineRoutingControl`` does, so run-time preferences
/// are kept in the state file and clearing brings back the configured ones.
package struct StateFilePreferenceKeeper: PreferenceKeeper {
    /// The daemon's preference list and its state file.
    package let preferences: DaemonPreferences

    /// A keeper of `preferences`.
    package init(preferences: DaemonPreferences) {
        self.preferences = preferences
    }

    /// Keeps (or forgets) the run-time list, then applies the list in force.
    package func setRunTime(_ list: [AudioPreference]?, on manager: AudioDeviceManager) async {
        await preferences.setRunTime(list)
        await preferences.apply(to: manager)
    }

    /// ``PreferenceOrigin``'s raw value.
    package var origin: String { preferences.origin.rawValue }
}
