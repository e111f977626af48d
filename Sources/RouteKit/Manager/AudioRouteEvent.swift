import PulseAudio

/// What an ``AudioDeviceManager`` reports, in the order it happened.
public enum AudioRouteEvent: Hashable, Sendable, CustomStringConvertible {
    /// Where things stand: always a subscriber's first event, so that a subscriber that
    /// arrives late (after ``AudioDeviceManager/start()``) knows the route all the same.
    case state(AudioRouteState)
    /// The devices changed: one appeared, went away, or changed availability, port or profile.
    /// Carries the devices now (what ``AudioDeviceManager/audioDevices`` returns).
    case devicesChanged([AudioDevice])
    /// The route changed, as the server reports it: audio now goes to `to` (nil: nowhere
    /// this manager can name, such as no device at all).
    case routeChanged(from: AudioDevice?, to: AudioDevice?, reason: RouteChangeReason)
    /// The route stays on the same device, with another input now (its microphone came, or
    /// went); `route` is the device as it is now.
    case inputChanged(route: AudioDevice)
    /// Switching to `device` failed; the manager went on to the next preference.
    case switchFailed(device: AudioDevice, reason: SwitchFailure)
    /// Call mode began or ended: a call became active, or the last active or held call ended
    /// (see ``CallSession``).
    case callAudioChanged(isActive: Bool)
    /// The calls held changed: one started, rang, was answered, held, resumed or ended.
    /// Carries the calls now, in the order they started.
    case callsChanged([CallSession])
    /// The microphone was muted or unmuted (the call's mute, applied wherever audio is recorded from).
    case microphoneMuteChanged(isMuted: Bool)
    /// Muting or unmuting the source `source` failed; the manager tries again at the next change.
    case microphoneFailed(source: String, reason: SwitchFailure)
    /// Where the manager stands with its sound server changed, in `PulseClient`'s words
    /// (`ConnectionState`): `.connecting` as a run starts reading the server, `.ready` once
    /// it follows it (at start, and back after a loss: the route is re-applied then), each
    /// `.reconnecting(attempt:lastError:)` while its client tries again, `.failed` when the
    /// client gave up or the start could not read the server, `.shutDown` after
    /// ``AudioDeviceManager/stop()``. See ``AudioRouteState/connection``.
    case connectionChanged(ConnectionState)
    /// Someone else (another daemon, a mixer) took the default away `overrides` times in a
    /// short while: the manager stops taking it back, and audio stays on `to`, until the
    /// devices, the preferences, the selection or call audio change.
    case yielded(to: AudioDevice?, overrides: Int)

    /// One line for logs.
    public var description: String {
        switch self {
        case .state(let state):
            "state: route \(state.route?.id.rawValue ?? "none"), \(state.devices.count) device\(state.devices.count == 1 ? "" : "s"), "
                + "call audio \(state.isCallAudioActive ? "on" : "off"), server connection \(state.connection)"
        case .inputChanged(let route):
            "input changed: \(route.id.rawValue) records from \(route.input?.deviceName ?? "no input of its own")"
        case .callAudioChanged(let isActive):
            "call audio \(isActive ? "on" : "off")"
        case .callsChanged(let calls):
            "calls: " + (calls.isEmpty ? "none" : calls.map(\.description).joined(separator: ", "))
        case .microphoneMuteChanged(let isMuted):
            "microphone \(isMuted ? "muted" : "unmuted")"
        case .microphoneFailed(let source, let reason):
            "microphone \(source): \(reason)"
        case .connectionChanged(let connection):
            "server connection: \(connection)"
        case .yielded(let device, let overrides):
            "yielded to \(device?.id.rawValue ?? "none") after \(overrides) overrides"
        case .devicesChanged(let devices):
            "devices changed: \(devices.count) device\(devices.count == 1 ? "" : "s")"
        case .routeChanged(let from, let to, let reason):
            "route changed (\(reason)): \(from?.id.rawValue ?? "none") -> \(to?.id.rawValue ?? "none")"
        case .switchFailed(let device, let reason):
            "switch to \(device.id) failed: \(reason)"
        }
    }
}

/// Where an ``AudioDeviceManager`` stands, as one value.
public struct AudioRouteState: Hashable, Sendable {
    /// The devices that can be used (``AudioDeviceManager/audioDevices``).
    public var devices: [AudioDevice]
    /// Where audio goes, as the server confirmed it.
    public var route: AudioDevice?
    /// Whether call audio is on.
    public var isCallAudioActive: Bool
    /// Where the manager stands with its server, in the words of its `PulseClient`
    /// (`ConnectionState`), told for the manager's own lifecycle:
    ///
    /// - `.idle`: created, never run;
    /// - `.connecting`: a run (``AudioDeviceManager/start()``) is reading the server;
    /// - `.ready`: it follows the server and routes;
    /// - `.reconnecting(attempt:lastError:)`: the connection was lost and the client tries
    ///   again; nothing is routed, and ``route`` is nil, until it is back;
    /// - `.failed(_:)`: the client gave up (its reconnect policy is off), or the start could
    ///   not read the server (``AudioDeviceManager/start()`` threw this error);
    /// - `.shutDown`: ``AudioDeviceManager/stop()`` ended the run, or the client was shut down.
    ///
    /// A cancelled start leaves `.idle`.
    public var connection: ConnectionState
    /// The preferences.
    public var preferences: PreferenceList
    /// The device chosen by hand, if any.
    public var selection: AudioDevice.ID?
    /// Whether the manager stopped taking the default back from someone else.
    public var isYielding: Bool
    /// The calls held, in the order they started; call mode is on while one is active or held.
    public var calls: [CallSession] = []
    /// The order calls are routed by (``PreferenceList/calls`` unless set).
    public var callPreferences: PreferenceList = .calls
    /// The call-time speaker toggle, nil when untouched since call mode began or ended.
    public var speaker: SpeakerSetting?
    /// The source audio is recorded from: the microphone chosen on its own, else the route's
    /// input; nil when there is none (never a monitor).
    public var microphone: String?
    /// The microphone chosen on its own, if any.
    public var microphoneSelection: AudioDevice.ID?
    /// Whether the microphone is muted (wherever audio is recorded from).
    public var isMicrophoneMuted = false

    /// Shorthand for `connection.isReady`: whether the manager is connected to its server and
    /// following it. Kept so that code that only needs yes or no reads as before;
    /// ``connection`` tells which kind of no (reconnecting, gave up, stopped).
    public var isConnected: Bool { connection.isReady }

    /// A state from its parts.
    public init(devices: [AudioDevice] = [], route: AudioDevice? = nil, isCallAudioActive: Bool = false,
                connection: ConnectionState = .idle, preferences: PreferenceList = PreferenceList(),
                selection: AudioDevice.ID? = nil, isYielding: Bool = false) {
        self.devices = devices
        self.route = route
        self.isCallAudioActive = isCallAudioActive
        self.connection = connection
        self.preferences = preferences
        self.selection = selection
        self.isYielding = isYielding
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
    /// The speaker toggle was turned on or off.
    case speakerToggled
    /// ``AudioDeviceManager/refreshSpeakerphoneSetting()`` re-applied the route.
    case refreshed
    /// The connection to the server came back (the server restarted): the route was re-applied.
    case reconnected
    /// The connection to the server was lost: no route can be named until it is back.
    case disconnected
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
        /// Muting or unmuting the microphone's source.
        case microphone
    }

    /// The step that failed.
    public var step: Step
    /// The server's error code, when the server refused.
    public var code: PulseError.Code?
    /// What went wrong, for people.
    public var message: String
    /// Whether the step was cancelled (the manager stopping) rather than refused: nothing it
    /// says about the device.
    public var isCancellation: Bool

    /// A failure from its parts.
    public init(step: Step, code: PulseError.Code? = nil, message: String, isCancellation: Bool = false) {
        self.step = step
        self.code = code
        self.message = message
        self.isCancellation = isCancellation
    }

    /// `step` cancelled.
    public static func cancelled(_ step: Step) -> SwitchFailure {
        SwitchFailure(step: step, message: "cancelled", isCancellation: true)
    }

    /// `step: message`.
    public var description: String { "\(step.rawValue): \(message)" }
}
