import PulseAudio

/// What an ``AudioDeviceManager`` reports, in the order it happened.
public enum AudioRouteEvent: Hashable, Sendable, CustomStringConvertible {
    /// The devices changed: one appeared, went away, or changed availability, port or profile.
    /// Carries the devices now (what ``AudioDeviceManager/audioDevices`` returns).
    case devicesChanged([AudioDevice])
    /// The route changed, as the server reports it: audio now goes to `to` (nil: nowhere
    /// this manager can name, such as no device at all).
    case routeChanged(from: AudioDevice?, to: AudioDevice?, reason: RouteChangeReason)
    /// Switching to `device` failed; the manager went on to the next preference.
    case switchFailed(device: AudioDevice, reason: SwitchFailure)

    /// One line for logs.
    public var description: String {
        switch self {
        case .devicesChanged(let devices):
            "devices changed: \(devices.count) device\(devices.count == 1 ? "" : "s")"
        case .routeChanged(let from, let to, let reason):
            "route changed (\(reason)): \(from?.id.rawValue ?? "none") -> \(to?.id.rawValue ?? "none")"
        case .switchFailed(let device, let reason):
            "switch to \(device.id) failed: \(reason)"
        }
    }
}

/// Why the route changed.
public enum RouteChangeReason: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// ``AudioDeviceManager/start()`` applied the preferences for the first time.
    case started
    /// The preference list changed (``AudioDeviceManager/setAudioDevice(_:)``,
    /// ``AudioDeviceManager/setDefaultAudio(_:)``, ``AudioDeviceManager/setPreferences(_:)``).
    case preferencesChanged
    /// A manual selection was made or cleared.
    case selectionChanged
    /// A device appeared or became available, and it ranks above the route.
    case deviceAppeared
    /// The device in use went away or became unavailable.
    case deviceFailed
    /// Another device changed: its availability, port or profile.
    case deviceChanged
    /// A switch failed and the manager fell through to the next preference.
    case fellThrough
    /// Someone else (a settings panel, another policy, the server) moved the route; the
    /// manager put it back, or, when no preference applies, reports where the server put it.
    case changedElsewhere
    /// Call audio started.
    case callStarted
    /// Call audio ended.
    case callEnded
    /// ``AudioDeviceManager/refreshSpeakerphoneSetting()`` re-applied the route.
    case refreshed
    /// The connection to the server came back (the server restarted): the route was re-applied.
    case reconnected
    /// ``AudioDeviceManager/stop()`` put back what the manager had changed.
    case stopped

    /// The raw value.
    public var description: String { rawValue }
}

/// Why a switch failed: the step that failed and what the server said.
public struct SwitchFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step of a switch.
    public enum Step: String, Hashable, Sendable, Codable {
        /// Selecting the card profile that offers the device.
        case profile
        /// Selecting the device's port on its sink or source.
        case port
        /// Making its sink the default.
        case defaultSink
        /// Making its source the default.
        case defaultSource
        /// Moving streams to it.
        case moveStreams
        /// Reading back what the server did: it did not do what was asked.
        case verification
    }

    /// The step that failed.
    public var step: Step
    /// The server's error code, when the server refused.
    public var code: PulseError.Code?
    /// What went wrong, for people.
    public var message: String

    /// A failure from its parts.
    public init(step: Step, code: PulseError.Code? = nil, message: String) {
        self.step = step
        self.code = code
        self.message = message
    }

    /// `step: message`.
    public var description: String { "\(step.rawValue): \(message)" }
}
