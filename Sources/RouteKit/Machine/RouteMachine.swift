import PulseAudio

/// Every routing decision of an ``AudioDeviceManager``, as a value: inputs and the device
/// snapshot in, actions out. It performs nothing and awaits nothing, so each rule of
/// <doc:WhatWinsWhen> is tested on the machine alone, without a server.
///
/// The engine's loop feeds it what the server shows (``update(devices:defaultSink:defaultSource:added:removed:now:)``),
/// the API's commands (``handle(_:now:)``), what the executor reports back
/// (``switchFailed(_:_:now:)``, ``record(_:)``) and the passing of time
/// (``deadlinePassed(now:)``); it answers with ``RouteAction``s for the executor.
///
/// A switch has stages: a card profile first when the device needs one (it is done when the
/// device shows up with that profile), then ports and defaults (it is done when the server
/// reports the new default on the same event stream). The route is reported only then.
struct RouteMachine: Sendable {
    /// How the machine behaves; fixed for its life.
    struct Configuration: Sendable {
        /// System scope (defaults and streams) or application scope (selected streams only).
        var isSystemScope = true
        /// How long a card may take to bring up a profile's devices.
        var profileTimeout: Duration = .seconds(3)
        /// How long the server may take to report a requested default (WirePlumber acts a
        /// moment after pipewire-pulse answers).
        var confirmationTimeout: Duration = .seconds(3)
        /// How long a switch waits for the server to report the default before the engine
        /// reads the defaults once on a renewed connection, well ahead of
        /// ``confirmationTimeout``: a pipewire-pulse connection can miss the change for good
        /// (Docs/Reliability.md), and the route is then right long before it is judged. None
        /// when it is not shorter than the timeout.
        var confirmationRecheck: Duration = .milliseconds(500)
        /// How many times someone else may take the default away within ``overrideWindow``
        /// before the machine stops taking it back.
        var overrideLimit = 3
        /// See ``overrideLimit``.
        var overrideWindow: Duration = .seconds(10)
        /// For how long after a failed switch a default moved by someone else is taken for the
        /// server's reaction to it (WirePlumber choosing again once the default the machine
        /// asked for has vanished), not for someone taking the route.
        var failureEcho: Duration = .seconds(1)
    }

    /// A switch under way.
    struct PendingSwitch: Sendable, Equatable {
        enum Stage: Sendable, Equatable {
            /// The card's profile was requested; waiting for the device to show with it.
            case profile(String)
            /// Ports and defaults (or, in application scope, streams) were requested; waiting
            /// for the server to report the default.
            case confirming(sink: String)
        }
        var device: AudioDevice
        var stage: Stage
        var reason: RouteChangeReason
        var deadline: ContinuousClock.Instant
        /// The default sink and source when the switch began: the streams still there once
        /// it is done are moved after it.
        var previousSink: String?
        var previousSource: String?
        /// When the engine reads the defaults on a renewed connection ahead of the deadline
        /// (``Configuration/confirmationRecheck``); nil once it has, or for none.
        var recheck: ContinuousClock.Instant? = nil
    }

    /// Where the machine stands with its server and the route: one value, so that what cannot
    /// hold at once (a switch while the server is gone, a switch while yielding) cannot be
    /// written. The route itself (``route``) is kept apart: it is what the server last
    /// confirmed, through every phase.
    enum Phase: Sendable, Equatable {
        /// Not following a server: before a run, while connecting or reconnecting, after a
        /// failed start, after stop. Nothing is decided or reported as a route. Never `.ready`.
        case offline(ConnectionState)
        /// Following the server with no switch under way.
        case settled
        /// A switch under way, with what it waits for.
        case switching(PendingSwitch)
        /// Someone else took the default away ``Configuration/overrideLimit`` times within
        /// ``Configuration/overrideWindow``: their default is followed as the route and
        /// nothing is switched until a device comes or goes, or the user speaks.
        case yielding
    }

    let configuration: Configuration
    // The properties below are written only by the machine's own methods (its files in
    // Machine/); the engine reads them.
    var preferences: PreferenceList
    var selection: AudioDevice.ID?
    /// The calls held, in the order they started (``RouteMachine+Calls``).
    var calls: [CallSession] = []
    /// The order calls are routed by while call mode lasts.
    var callPreferences = PreferenceList.calls
    /// The call-time speaker toggle: on puts audio on a speakerphone, off on the best other
    /// device of the call list; nil when nobody toggled it since call mode began or ended.
    var speaker: SpeakerSetting?
    /// Where media went when call mode began: it comes back when call mode ends, when no media
    /// preference decides (the server's own choice before the call).
    var mediaRouteBeforeCall: AudioDevice.ID?
    /// The microphone chosen on its own (a desk microphone while listening on the speaker).
    var microphoneSelection: AudioDevice.ID?
    /// Whether the microphone is muted: applied to whatever source is recorded from.
    var isMicrophoneMuted = false
    /// The sources the machine muted for ``isMicrophoneMuted``, to unmute when the route moves on.
    var mutedSources: Set<String> = []
    /// Sources whose mute the server refused: not asked again until the devices change, the
    /// mute is asked for again, or ``muteRetry`` passes (a source that vanished before the
    /// machine heard of it must not be asked over and over while its removal is on its way).
    var refusedMutes: Set<String> = []
    /// When the refused mutes are tried again if nothing else brought them back first.
    var muteRetry: ContinuousClock.Instant?
    /// Application scope: whether the selected capture streams were muted for ``isMicrophoneMuted``.
    var capturesMuted = false
    /// Where the machine stands: offline, settled, switching or yielding (``Phase``).
    var phase: Phase = .offline(.idle)
    var devices: [AudioDevice] = []
    var defaultSink: String?
    var defaultSource: String?
    /// The route as the server confirmed it.
    var route: AudioDevice?
    /// What the engine changed, to put back at stop.
    var ledger = RestorationLedger()

    /// Arrival order (higher is newer), for "the newest of a kind wins".
    var arrivals: [AudioDevice.ID: Int] = [:]
    var nextArrival = 0
    /// Devices that appeared since the last decision: one of them may take over from a route
    /// that satisfies the same preference.
    var newcomers: Set<AudioDevice.ID> = []
    /// Devices the server refused, as they were then; forgotten when they change.
    var refused: [AudioDevice.ID: AudioDevice] = [:]
    /// Devices whose switch the server did not confirm in time, as they were then; not tried
    /// again until they change, so that a slow server does not make audio bounce.
    var unconfirmed: [AudioDevice.ID: AudioDevice] = [:]
    /// When someone else took the default away recently.
    var overrides: [ContinuousClock.Instant] = []
    /// When devices last appeared or went: a default that moves soon after is the server's.
    var lastDeviceChurn: ContinuousClock.Instant?
    /// When a switch last failed.
    var lastFailure: ContinuousClock.Instant?
    /// The sinks and sources the route was on lately, newest last: a stream that followed the
    /// route may still be on one of them when switches come fast (a reconnect storm), the
    /// server having moved it there after the machine last looked.
    var recentSinks: [String] = []
    var recentSources: [String] = []
    /// How many of them are kept.
    static let recentRoutes = 4
    /// Cards switched to a call profile, with the profile each had before.
    var callProfiles: [String: String] = [:]
    /// The default source when call audio started.
    var callDefaultSource: String?
    /// Which devices kind entries may choose, and the hold-off for new devices.
    var automatic = AutomaticChoice()
    /// Devices that appeared within the hold-off, not chosen by the preferences yet.
    var holdOff = ArrivalHoldOff()

    init(configuration: Configuration, preferences: PreferenceList = PreferenceList()) {
        self.configuration = configuration
        self.preferences = preferences
    }

    /// When the machine wants ``deadlinePassed(now:)`` at the latest: a switch's deadline, the
    /// end of a new device's hold-off, or the retry of a refused mute.
    var deadline: ContinuousClock.Instant? {
        // The recheck is acted on only in system scope (``isConfirmationOverdue(now:)``): a
        // recheck passed and not acted on would be a deadline forever past.
        let recheck = configuration.isSystemScope ? pending?.recheck : nil
        return [pending?.deadline, recheck, holdOff.nextRelease(holdOff: automatic.holdOff), muteRetry]
            .compactMap { $0 }.min()
    }

    /// Whether a system-scope switch is waiting for the server to confirm the default past its
    /// recheck or its deadline: the engine reads the defaults on a renewed connection, once
    /// ahead of the deadline (after ``confirmationRechecked()``) and again before the machine
    /// judges it (``deadlinePassed(now:)``).
    func isConfirmationOverdue(now: ContinuousClock.Instant) -> Bool {
        guard configuration.isSystemScope, let pending, case .confirming = pending.stage else { return false }
        return now >= pending.deadline || pending.recheck.map { now >= $0 } ?? false
    }

    /// The engine is reading the defaults afresh for the switch under way: its recheck is
    /// done (the deadline stays).
    mutating func confirmationRechecked() -> [RouteAction] {
        if case .switching(var pending) = phase {
            pending.recheck = nil
            phase = .switching(pending)
        }
        return []
    }

    /// Whether the machine follows the server: it decides and reports routes only then.
    var isConnected: Bool {
        if case .offline = phase { false } else { true }
    }

    /// Whether no switch is under way.
    var isSettled: Bool { pending == nil }

    /// Where the manager stands with its server (``AudioRouteState/connection``): ready in
    /// every phase but ``Phase/offline(_:)``.
    var connection: ConnectionState {
        if case .offline(let state) = phase { state } else { .ready }
    }

    /// The switch under way, in ``Phase/switching(_:)``.
    var pending: PendingSwitch? {
        if case .switching(let pending) = phase { pending } else { nil }
    }

    /// Whether the machine yields to someone else's default (``Phase/yielding``).
    var isYielding: Bool { phase == .yielding }

    /// The devices that can be used now: ACB's `audioDevices`.
    var usableDevices: [AudioDevice] { devices.filter { $0.availability != .unavailable } }

    /// Whether call mode is on: a call is active or held.
    var isCallActive: Bool { calls.contains(where: \.holdsCallMode) }

    /// What a new subscriber is told first.
    var state: AudioRouteState {
        var state = AudioRouteState(devices: usableDevices, route: route, isCallAudioActive: isCallActive, connection: connection,
                                    preferences: preferences, selection: selection, isYielding: isYielding)
        state.calls = calls
        state.callPreferences = callPreferences
        state.speaker = speaker
        state.microphone = microphone
        state.microphoneSelection = microphoneSelection
        state.isMicrophoneMuted = isMicrophoneMuted
        return state
    }
}

/// What the machine asks the executor to do.
enum RouteAction: Sendable, Equatable {
    /// Select `profile` on `card`, for `device`.
    case selectProfile(card: String, profile: String, device: AudioDevice.ID)
    /// Route to a device: ports, then the defaults (system scope) or the selected streams
    /// (application scope).
    case route(RoutePlan)
    /// After a confirmed switch (system scope): move the streams that stayed on the old
    /// default, or on the old route, a few at a time, to the new one.
    case moveStrays(fromSinks: [String], toSink: String, fromSources: [String], toSource: String?)
    /// Put a card back on the profile it had before call audio, if it still has ours.
    case restoreProfile(card: String, profile: String, ifStill: String?)
    /// Make `source` the default source again (call audio ended).
    case restoreDefaultSource(String)
    /// Mute or unmute the source `source` (the microphone's mute, applied where it records).
    case muteSource(String, muted: Bool)
    /// Application scope: mute or unmute the selected capture streams (the call's own), and
    /// those that start later while muted.
    case muteCaptureStreams(muted: Bool)
    /// Renew the server's connection and read the defaults on the new one: the old one may
    /// have missed a change of the default for good (pipewire-pulse, Docs/Reliability.md).
    case readDefaultsAfresh
    /// Answer the command being handled with a refusal: nothing was changed.
    case refuse(CommandRefusal)
    /// Tell subscribers.
    case emit(AudioRouteEvent)
}

/// The requests that put the route on one device.
struct RoutePlan: Sendable, Equatable {
    var device: AudioDevice
    var sink: String
    var sinkPort: String?
    var source: String?
    var sourcePort: String?
    /// Whether the default sink must be set (it is not already this sink).
    var setsSink: Bool
    /// Whether the default source must be set.
    var setsSource: Bool
}

/// What an API call asks of the machine.
enum RouteCommand: Sendable, Equatable {
    case setPreferences(PreferenceList)
    case setPreferred(AudioPreference?)
    case setFallback(AudioPreference?)
    case select(AudioDevice.ID?)
    case callAudio(Bool)
    case startCall(CallSession)
    case setCallState(CallSession.ID, CallState)
    case endCall(CallSession.ID)
    /// Ends every call of this origin (a bus client gone).
    case endCalls(CallOrigin)
    case setCallPreferences(PreferenceList)
    case setSpeaker(SpeakerSetting?)
    case selectMicrophone(AudioDevice.ID?)
    case muteMicrophone(Bool)
    case refresh
    case setAutomaticChoice(AutomaticChoice)
    /// The server's default sink as read apart from the manager's connection (PipeWire's
    /// "default" metadata, read by a client of its own).
    case defaultSinkSeenElsewhere(String)
}

/// A change the executor made, reported back for the ledger.
enum RecordedChange: Sendable, Equatable {
    case defaultSink(String)
    case defaultSource(String)
    /// Asked for as the default; the run stopped before the answer came.
    case defaultSinkUnanswered(String)
    case defaultSourceUnanswered(String)
    case port(device: String, output: Bool, original: String, selected: String)
    case profile(card: String, original: String, selected: String)
    case streamMoved(index: UInt32, output: Bool, name: String, client: UInt32?, from: String?, to: String)
    case streamGone(index: UInt32, output: Bool)
}
