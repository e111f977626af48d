import Logging
import PulseAudio

/// Keeps audio on the device an application prefers, and off the ones that fail: ACB's
/// `ACBAudioDeviceManager` for Linux, over PulseAudio or PipeWire.
///
/// ```swift
/// let manager = AudioDeviceManager(server: client)
/// await manager.setAudioDevice(.kind(.bluetooth))      // preferred
/// await manager.setDefaultAudio(.kind(.speakerphone))  // fallback
/// try await manager.start()
/// for await event in await manager.events() { print(event) }
/// ```
///
/// The preferences are an ordered list (``setPreferences(_:)``); ACB's preferred and fallback
/// devices are its first two entries. ``RoutePolicy`` ranks the devices; the manager tries
/// them in order on every relevant event and reports the route the server confirms.
/// See <doc:WhatWinsWhen> for the rules.
///
/// Every method is safe to call from any task. Calls that change the route return once the
/// server has answered (or the switch has failed and the next device was tried).
public actor AudioDeviceManager {
    /// What the manager routes: the system defaults, or one application's streams.
    public nonisolated let scope: RouteScope
    let server: any AudioServer
    let logger: Logger
    let deviceList: DeviceList
    let configuredDefaultsReader: (any ConfiguredDefaultsReader)?
    /// How long a card may take to bring up a profile's sink and source (PipeWire and
    /// Bluetooth do it after answering).
    let profileTimeout: Duration

    /// The ordered preference list: the first entry that matches a usable device wins.
    public private(set) var preferences: [AudioPreference]
    /// The device chosen by hand (``select(_:)``), kept while it is present.
    public internal(set) var manualSelection: AudioDevice.ID?
    /// Whether call audio is on (``activateCallAudio()``).
    public internal(set) var isCallAudioActive = false
    /// The device audio goes to, as the server last confirmed it; nil before ``start()`` or
    /// when audio goes nowhere the manager can name.
    public internal(set) var selectedAudioDevice: AudioDevice?
    /// Whether ``start()`` has run and ``stop()`` has not.
    public private(set) var isRunning = false

    var devicesByID: [AudioDevice.ID: AudioDevice] = [:]
    var arrivals: [AudioDevice.ID: Int] = [:]
    var nextArrival = 0
    var failures: [AudioDevice.ID: AudioDevice] = [:]
    var ledger = RestorationLedger()
    var call = CallAudioRecord()
    /// In application scope: the device the selected streams were last moved to.
    var applicationTarget: AudioDevice?
    /// In application scope: the selected streams seen so far, followed when they move.
    var followedStreams: Set<StreamKey> = []
    var pendingReason: RouteChangeReason?
    var isReconciling = false
    var reconcileWaiters: [CheckedContinuation<Void, Never>] = []
    var subscribers: [Int: AsyncStream<AudioRouteEvent>.Continuation] = [:]
    var nextSubscriber = 0
    var tasks: [Task<Void, Never>] = []

    /// A manager over `server`; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - scope: ``RouteScope/system`` (the default) or ``RouteScope/application(_:)``.
    ///   - preferences: the ordered preference list; it can change at any time.
    ///   - configuredDefaults: reads the user's configured defaults, so that ``stop()`` can put
    ///     them back exactly (``PipeWireConfiguredDefaults`` on PipeWire); without one, ``stop()``
    ///     restores the defaults that were in use at ``start()``.
    ///   - profileTimeout: how long to wait for a card profile's devices to appear.
    ///   - logger: where the manager logs; it never bootstraps logging.
    public init(server: any AudioServer, scope: RouteScope = .system, preferences: [AudioPreference] = [],
                configuredDefaults: (any ConfiguredDefaultsReader)? = nil, profileTimeout: Duration = .seconds(3),
                logger: Logger = Logger(label: "routekit.manager")) {
        self.server = server
        self.scope = scope
        self.preferences = preferences
        self.configuredDefaultsReader = configuredDefaults
        self.profileTimeout = profileTimeout
        self.logger = logger
        self.deviceList = DeviceList(server: server, logger: logger)
    }

    // MARK: Starting and stopping

    /// Reads the server's devices, applies the preferences, and follows the server until
    /// ``stop()``. Throws `PulseError` when the server cannot be read.
    public func start() async throws {
        guard !isRunning else { return }
        let serverEvents = server.events()
        try await deviceList.start()
        let changes = await deviceList.changes()
        let info: ServerInfo
        do { info = try await server.serverInfo() } catch {
            await deviceList.stop()
            throw error
        }
        var configured: ConfiguredDefaults?
        if info.implementation == .pipewire, let reader = configuredDefaultsReader {
            do { configured = try await reader.configuredDefaults() } catch {
                logger.notice("configured defaults unreadable; stop() will restore the defaults in use",
                              metadata: ["error": "\(error)"])
            }
        }
        ledger = RestorationLedger(defaultSink: info.defaultSinkName, defaultSource: info.defaultSourceName,
                                   configured: configured)
        isRunning = true
        let devices = await deviceList.devices
        remember(devices)
        tasks.append(Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                await self.deviceListChanged(change)
            }
        })
        tasks.append(Task { [weak self] in
            for await event in serverEvents {
                guard let self else { return }
                await self.serverEvent(event)
            }
        })
        await reconcile(.started)
    }

    /// Stops following the server and puts back what the manager changed: the defaults
    /// (PipeWire's configured default too), the streams it moved, the ports and profiles it
    /// switched; each only if nobody changed it since. Ends every ``events()`` stream.
    public func stop() async {
        guard isRunning else { return }
        isRunning = false
        for task in tasks { task.cancel() }
        tasks.removeAll()
        while isReconciling { await withCheckedContinuation { reconcileWaiters.append($0) } }
        await restoreCallProfiles()
        let changes = await deviceList.changes()
        let sink = await ledger.restore(on: server, reader: configuredDefaultsReader, logger: logger)
        ledger = RestorationLedger()
        if scope == .system, sink != .untouched {
            await awaitDefault(sink, changes: changes)
        }
        let before = selectedAudioDevice
        selectedAudioDevice = nil
        let restored = scope == .system ? await deviceList.devices.first { $0.isActive && $0.output != nil } : nil
        await deviceList.stop()
        if before != nil, restored?.id != before?.id {
            emit(.routeChanged(from: before, to: restored, reason: .stopped))
        }
        applicationTarget = nil
        followedStreams.removeAll()
        failures.removeAll()
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    /// After restoring: waits (bounded) until the device list shows the default restored, or,
    /// when the configured default was forgotten, the server's next choice.
    private func awaitDefault(_ restoration: RestorationLedger.DefaultSinkRestoration,
                              changes: AsyncStream<DeviceList.Change>) async {
        let deviceList = self.deviceList
        let expected: String? = if case .set(let name) = restoration { name } else { nil }
        let timeout: Duration = expected == nil ? .milliseconds(500) : profileTimeout
        _ = await waitOnDeviceList(changes, timeout: timeout) { change -> Bool? in
            guard let expected else { return change?.defaultsChanged == true ? true : nil }
            guard change?.defaultsChanged ?? true else { return nil }
            return await deviceList.defaultSinkName == expected ? true : nil
        }
    }

    // MARK: Devices

    /// The devices that can be used now (available, or of unknown availability), in the
    /// order they appeared. ACB's `audioDevices()`.
    public var audioDevices: [AudioDevice] {
        get async { await deviceList.devices.filter { $0.availability != .unavailable } }
    }

    /// Every device the server shows, unavailable ones included.
    public var allDevices: [AudioDevice] {
        get async { await deviceList.devices }
    }

    // MARK: Preferences

    /// Replaces the preference list and applies it.
    public func setPreferences(_ preferences: [AudioPreference]) async {
        self.preferences = preferences
        failures.removeAll()
        await reconcile(.preferencesChanged)
    }

    /// Sets the preferred device (the list's first entry; nil removes it, ACB's `.none`):
    /// used whenever present, switched to as soon as it appears.
    public func setAudioDevice(_ preference: AudioPreference?) async {
        var list = preferences
        if !list.isEmpty { list.removeFirst() }
        if let preference { list.insert(preference, at: 0) }
        await setPreferences(list)
    }

    /// Sets the fallback device (the list's second entry; nil removes it): used when the
    /// preferred one is absent or fails. Without a preferred device it is the only entry.
    public func setDefaultAudio(_ preference: AudioPreference?) async {
        var list = Array(preferences.prefix(1))
        if let preference { list.append(preference) }
        await setPreferences(list)
    }

    /// Chooses `device` by hand, above every preference, for as long as it stays present
    /// (`routectl use`); nil clears the choice. Throws ``SelectionError`` for a device that is
    /// not present or not usable.
    public func select(_ device: AudioDevice.ID?) async throws(SelectionError) {
        if let device {
            guard let found = await deviceList.device(device) else { throw .noSuchDevice(device) }
            guard RoutePolicy.isUsable(found) else { throw .notUsable(found) }
        }
        manualSelection = device
        failures.removeAll()
        await reconcile(.selectionChanged)
    }

    /// Applies the route again from scratch, as ACB's `refreshSpeakerphoneSetting()`: clears
    /// the record of failed switches and re-asserts ports, defaults and streams.
    public func refreshSpeakerphoneSetting() async {
        failures.removeAll()
        await reconcile(.refreshed)
    }

    // MARK: Events

    /// The manager's events from now on; the stream ends at ``stop()``.
    public func events() -> AsyncStream<AudioRouteEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AudioRouteEvent.self)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers.removeValue(forKey: id) }

    func emit(_ event: AudioRouteEvent) {
        logger.debug("\(event)")
        for continuation in subscribers.values { continuation.yield(event) }
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
