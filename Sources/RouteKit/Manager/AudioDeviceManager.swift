import ConcurrencySupport
import Logging
import PulseAudio
import ServiceLifecycle

/// Keeps audio on the device an application prefers, and off the ones that fail: ACB's
/// `ACBAudioDeviceManager` for Linux, over PulseAudio or PipeWire.
///
/// ```swift
/// let manager = AudioDeviceManager(server: client)
/// await manager.setAudioDevice(.kind(.bluetooth))      // preferred
/// await manager.setDefaultAudio(.kind(.speakerphone))  // fallback
/// try await manager.start()
/// for await event in manager.events() { print(event) } // the state first, then changes
/// ```
///
/// It is a swift-service-lifecycle `Service`: ``run()`` follows the server until graceful
/// shutdown (or cancellation), then puts back what it changed. ``start()`` and ``stop()`` are
/// ACB's facade over the same run, for code that does not host a service group. One loop owns
/// the routing: the server's events and the API's calls go through it in the order they came,
/// and every decision is made by a pure route state machine (see <doc:WhatWinsWhen>).
///
/// Give it a client of its own, narrowed to what it follows: `subscription: [.devices,
/// .clients]` in system scope, `[.devices, .streams]` in application scope
/// (`PulseClient.Configuration`). On pipewire-pulse, a connection can miss a change of the
/// default made while a client connects; once clients stop coming and going, the manager reads
/// the default on a new connection and heals its own when they differ (Docs/Reliability.md).
///
/// The preferences are ACB's preferred and fallback devices (two independent slots) with any
/// entries between them (``PreferenceList``). Calls that change the route return once the
/// server has confirmed it (or the switch failed and the next device was tried), within a
/// bound; a cancelled caller stops waiting, and the call still takes effect.
public final class AudioDeviceManager: Sendable {
    /// What the manager routes: the system defaults, or one application's streams.
    public let scope: RouteScope
    let server: any AudioServer
    let logger: Logger
    let configuredDefaultsStore: (any ConfiguredDefaultsStore)?
    /// How long stop() may spend putting things back before it gives up and says what is left.
    let restoreTimeout: Duration
    /// Whether ``mirrors()`` carries the server's streams (``ServerMirror/streams``): followers
    /// that watch streams compute from them then, instead of reading the server.
    public let mirrorsStreams: Bool
    let core: ManagerCore
    let gate = LifecycleGate()
    let timings = TimingRecorder()

    /// A manager over `server`; nothing happens until ``start()`` or ``run()``.
    ///
    /// - Parameters:
    ///   - scope: ``RouteScope/system`` (the default) or ``RouteScope/application(_:)``.
    ///   - preferences: the ordered preference list (its first entry is the preferred device);
    ///     it can change at any time.
    ///   - configuredDefaults: reads the user's configured defaults, so that ``stop()`` can put
    ///     them back exactly (`PipeWireConfiguredDefaults`, in PipeWireDefaults, on PipeWire); without one, ``stop()``
    ///     restores the defaults that were in use at start.
    ///   - profileTimeout: how long a card may take to bring up a profile's devices, and the
    ///     server to confirm a new default.
    ///   - restoreTimeout: how long ``stop()`` may take to put things back (well inside
    ///     systemd's stop timeout).
    ///   - mirrorsStreams: whether ``mirrors()`` carries the server's streams too
    ///     (``ServerMirror/streams``), read by the manager's loop after each switch, for
    ///     followers that watch them (``StreamCallDetector/init(manager:rule:logger:)``). The
    ///     client must then hear of streams (`subscription` with `.streams`, or `.all`).
    ///   - logger: where the manager logs; it never bootstraps logging.
    public init(server: any AudioServer, scope: RouteScope = .system, preferences: [AudioPreference] = [],
                configuredDefaults: (any ConfiguredDefaultsStore)? = nil, profileTimeout: Duration = .seconds(3),
                restoreTimeout: Duration = .seconds(4), mirrorsStreams: Bool = false,
                logger: Logger = Logger(label: "routekit.manager")) {
        self.server = server
        self.mirrorsStreams = mirrorsStreams
        self.scope = scope
        self.configuredDefaultsStore = configuredDefaults
        self.restoreTimeout = restoreTimeout
        self.logger = logger
        var configuration = RouteMachine.Configuration()
        configuration.isSystemScope = scope == .system
        configuration.profileTimeout = profileTimeout
        configuration.confirmationTimeout = profileTimeout
        core = ManagerCore(machine: RouteMachine(configuration: configuration, preferences: PreferenceList(preferences)))
    }

    // MARK: State, read at once

    /// Where things stand now: devices, route, call audio, connection, preferences.
    public var state: AudioRouteState { core.withShared { $0.machine.state } }

    /// The device audio goes to, as the server last confirmed it; nil when not running or
    /// when audio goes nowhere the manager can name.
    public var selectedAudioDevice: AudioDevice? { core.withShared { $0.machine.route } }

    /// The preference list, best first.
    public var preferences: [AudioPreference] { core.withShared { $0.machine.preferences.ordered } }

    /// The preferred device, the fallback and the entries between them.
    public var preferenceList: PreferenceList { core.withShared { $0.machine.preferences } }

    /// The device chosen by hand (``select(_:)``), kept while it is present.
    public var manualSelection: AudioDevice.ID? { core.withShared { $0.machine.selection } }

    /// Whether the manager is running (between ``start()`` and ``stop()``, or inside ``run()``).
    public var isRunning: Bool { core.withShared { $0.inputs != nil } }

    /// The devices that can be used now (available, or of unknown availability), in the
    /// order they appeared: ACB's `audioDevices()`. While the manager runs, as it follows
    /// them; otherwise read from the server now. Throws `PulseError` when it cannot be read.
    public var audioDevices: [AudioDevice] {
        get async throws { try await allDevices.filter { $0.availability != .unavailable } }
    }

    /// Every device the server shows, unavailable ones included; read from the server when
    /// the manager is not running.
    public var allDevices: [AudioDevice] {
        get async throws {
            if let devices = devicesWhileRunning { return devices }
            return try await DeviceTracker.read(from: server).devices
        }
    }

    /// Where the time of the last event-driven switches went, hop by hop (for benchmarks).
    package var switchTimings: [SwitchTiming] { timings.all }

    /// The devices as the running loop follows them; nil when the manager does not run.
    private var devicesWhileRunning: [AudioDevice]? {
        core.withShared { $0.inputs == nil ? nil : $0.machine.devices }
    }

    /// The manager's events: first its ``AudioRouteEvent/state(_:)``, then every change, until
    /// ``stop()``. A subscriber that falls more than 1 024 events behind loses the oldest.
    public func events() -> AsyncStream<AudioRouteEvent> {
        core.subscribe()
    }

    /// The server's devices and defaults (and its streams, for a manager made with
    /// `mirrorsStreams`) as the manager reads them: the mirror now, then each change, after
    /// the switch it caused, until ``stop()``. Following it costs the server no request of the
    /// follower's own: the manager reads each changed device once per batch of events, for
    /// routing, and each changed stream once per burst, after the switch.
    /// A follower that falls behind gets the newest mirror only.
    public func mirrors() -> AsyncStream<ServerMirror> {
        core.subscribeToMirror()
    }

    /// The server's devices and defaults as the manager last read them (``mirrors()``).
    public var mirror: ServerMirror {
        core.withShared { $0.mirror }
    }

    /// Has the manager read the sinks named `sinks` (and the server's defaults, when
    /// `defaults`) again and returns the first mirror that holds those readings: for a
    /// follower that has just changed one of them (volume capture's restore) and must not take
    /// a mirror read before its request landed for the server's answer to it, or that starts
    /// and must not begin from a mirror a change the server already made has not reached yet.
    /// Call it once the request is answered; then skip any mirror of ``mirrors()`` whose
    /// ``ServerMirror/revision`` is lower than the one returned.
    ///
    /// A sink the manager does not know is not read. While the manager is disconnected, the
    /// mirror returned says so (``ServerMirror/isConnected``); when it does not run, it is
    /// ``mirror`` at once; when the calling task is cancelled, too.
    public func mirror(readingAgain sinks: Set<String>, defaults: Bool = false) async -> ServerMirror {
        let answer = OneShotValue<ServerMirror>()
        let queued = core.withShared { shared -> Bool in
            guard let inputs = shared.inputs else { return false }
            inputs.push(.readAgain(sinks: sinks, defaults: defaults, answer))
            return true
        }
        guard queued, let mirror = await answer.value() else { return mirror }
        return mirror
    }

    // MARK: Preferences and selection

    /// Replaces the whole preference list (its first entry becomes the preferred device, no
    /// fallback) and applies it.
    public func setPreferences(_ preferences: [AudioPreference]) async {
        await send(.setPreferences(PreferenceList(preferences)))
    }

    /// Replaces the preferred device, the fallback and the entries between them.
    public func setPreferences(_ list: PreferenceList) async {
        await send(.setPreferences(list))
    }

    /// Sets the preferred device (nil removes it, ACB's `.none`): used whenever present,
    /// switched to as soon as it appears. Leaves the fallback as it is.
    public func setAudioDevice(_ preference: AudioPreference?) async {
        await send(.setPreferred(preference))
    }

    /// Sets the fallback device (nil removes it): used when nothing preferred works. Leaves
    /// the preferred device as it is.
    public func setDefaultAudio(_ preference: AudioPreference?) async {
        await send(.setFallback(preference))
    }

    /// Which devices kind entries may choose by themselves, and how long a new device waits
    /// before the preferences switch to it.
    public var automaticChoice: AutomaticChoice { core.withShared { $0.machine.automatic } }

    /// Replaces the rules for what the preferences may choose by themselves (a configuration
    /// reloaded) and applies them at once; a device already held back waits out the new hold-off.
    public func setAutomaticChoice(_ choice: AutomaticChoice) async {
        await send(.setAutomaticChoice(choice))
    }

    /// Chooses `device` by hand, above every preference, for as long as it stays present
    /// (`routectl use`); nil clears the choice. Throws ``SelectionError`` for a device that is
    /// not present or not usable.
    public func select(_ device: AudioDevice.ID?) async throws(SelectionError) {
        if let device {
            let found: AudioDevice?
            if let devices = devicesWhileRunning {
                found = devices.first { $0.id == device }
            } else {
                found = try? await allDevices.first { $0.id == device }
            }
            guard let found else { throw .noSuchDevice(device) }
            guard RoutePolicy.isUsable(found) else { throw .notUsable(found) }
        }
        await send(.select(device))
    }

    /// Applies the route again from scratch, as ACB's `refreshSpeakerphoneSetting()`: forgets
    /// failed switches and re-asserts what is missing.
    public func refreshSpeakerphoneSetting() async {
        await send(.refresh)
    }

    /// Tells the manager the default sink that a client other than its own connection reads
    /// now, for example from PipeWire's "default" metadata with `pw-metadata` (the
    /// `PipeWireDefaults` library). When the manager's view differs and no switch of its own
    /// is under way, it renews its connection, reads the defaults on the new one and decides
    /// on what it finds; otherwise nothing happens.
    ///
    /// pipewire-pulse's copy of the graph misses a change of the default made while another
    /// client connects, and keeps the old one until the next change: at login, when the
    /// session manager restores the default beside every starting client, the route can stay
    /// where the manager believes it is while audio plays elsewhere (Docs/Reliability.md,
    /// "The PipeWire default that never reaches long-lived connections"). `routectl daemon`
    /// asks this shortly after it starts on PipeWire.
    public func reconcileDefaultSink(seenElsewhere sink: String) async {
        await send(.defaultSinkSeenElsewhere(sink))
    }

    /// Hands a command to the loop and waits until it has settled; returns what the loop noted
    /// for the caller. Not running: the command changes only what is kept for the next start
    /// (a refusal is still told).
    @discardableResult
    func send(_ command: RouteCommand) async -> CommandTicket.Report {
        let ticket = CommandTicket()
        guard let answered = enqueue(command, ticket) else { return await ticket.wait() }
        return CommandTicket.Report(refusal: answered)
    }

    /// Hands a command to the running loop with `ticket`, or, not running, applies it to the
    /// machine at once: nil when queued, else the refusal it met (`.some(nil)`: none).
    func enqueue(_ command: RouteCommand, _ ticket: CommandTicket) -> CommandRefusal?? {
        core.withShared { shared -> CommandRefusal?? in
            guard let inputs = shared.inputs else {
                return .some(shared.machine.handle(command, now: .now).refusal)
            }
            inputs.push(.command(command, ticket))
            return nil
        }
    }
}

/// Why ``AudioDeviceManager/select(_:)`` refused a device.
public enum SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No device has this id now.
    case noSuchDevice(AudioDevice.ID)
    /// The device is unavailable, or has no output.
    case notUsable(AudioDevice)

    /// For people.
    public var description: String {
        switch self {
        case .noSuchDevice(let id): "no device \"\(id)\" is present"
        case .notUsable(let device):
            device.output == nil ? "\"\(device.id)\" has no output" : "\"\(device.id)\" is unavailable"
        }
    }
}
