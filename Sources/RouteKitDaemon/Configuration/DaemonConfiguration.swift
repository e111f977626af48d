import MediaControl
import PulseAudio
import RouteKit

/// What `routectl daemon` is set to do: read from the configuration file
/// (``ConfigurationFile``), with the command line's options over it (``DaemonOverrides``).
/// A plain value: reloading builds a new one and hands the engine what changed.
package struct DaemonConfiguration: Equatable, Sendable {
    /// The preference list, best first (`preferences`).
    package var preferences: [AudioPreference] = []
    /// What is routed (`scope`, `match`).
    package var scope: RouteScope = .system
    /// What kind entries may choose by themselves, and the hold-off (`[automatic]`).
    package var automatic = AutomaticChoice()
    /// Pausing media on unplug and during calls (`[media]`).
    package var media = MediaSettings()
    /// How calls are routed and found (`[calls]`).
    package var calls = CallSettings()
}

/// The daemon's call settings (`[calls]`).
package struct CallSettings: Equatable, Sendable {
    /// Whether a playback and capture pair of a softphone that does not talk to RouteKit
    /// starts a call (`detect`, on by default in the daemon).
    package var detects = true
    /// Which streams make a call when detected (`detect-roles`, `detect-applications`).
    package var detection = CallDetectionRule()
    /// The order calls are routed by (`preferences`).
    package var preferences = PreferenceList.calls
    /// Where ringtones and notifications sound while a call rings and a headset is in use
    /// (`ringing`): on the speaker and the headset at once by default, as Android rings.
    package var ringing = RingingPlacement.both
    /// The `media.role` values of ring streams (`ring-roles`).
    package var ringRoles: Set<String> = ["event"]
    /// Applications whose playback rings (`ring-applications`).
    package var ringApplications: Set<String> = []
}

extension CallSettings {
    /// What ringing does: the ringing keys, with `privateKinds` (`[media]`'s) as the headsets.
    package func ringingSettings(privateKinds: Set<AudioDeviceKind>) -> RingingSettings {
        RingingSettings(placement: ringing, roles: ringRoles, applications: ringApplications, privateKinds: privateKinds)
    }
}

extension DaemonConfiguration {
    /// What ringing does: `[calls]`'s ringing keys, with `[media]`'s private kinds as the headsets.
    package var ringing: RingingSettings { calls.ringingSettings(privateKinds: media.privateKinds) }
}

extension RouteScope {
    /// What a client must hear about to route this scope: devices and defaults, plus clients
    /// in system scope (on PipeWire, their coming and going starts the engine's check for a
    /// default its connection missed) and streams in application scope.
    package var subscription: SubscriptionMask {
        switch self {
        case .system: [.devices, .clients]
        case .application: [.devices, .streams]
        }
    }

    /// `system`, or `application (media.role=phone)`, for the daemon's lines.
    package var summary: String {
        switch self {
        case .system: "system"
        case .application(let selector): "application (\(selector))"
        }
    }
}
