import ConcurrencySupport
import Foundation
import Logging
import PulseAudio
import RouteKit
import SoundServerSandbox
import Synchronization
import TestSupport
import Testing

// What the end-to-end tests of `AudioDeviceManager` share: a sandboxed server, the manager on
// a connection of its own, a second connection that watches the server the way any other
// client would, virtual devices of the project's convention, and waits that end in a timeout.

/// A virtual device of the convention in Docs/Testing.md: a null sink whose properties say
/// what it stands for. Its device id is its sink name (null sinks have no card).
///
/// It may have a microphone: a `module-pipe-source` (the one source module both servers load
/// with properties) with the same properties and `device.bus_path`, which is what pairs a
/// card-less sink with its source in RouteKit's device model.
struct ConventionDevice: Sendable, CustomStringConvertible {
    /// The sink name, which is also the device id.
    let name: String
    /// The sink properties.
    let properties: [String: String]
    /// Whether it has a microphone (a source named ``microphoneName``).
    var hasMicrophone = false

    var id: AudioDevice.ID { AudioDevice.ID(rawValue: name) }
    var description: String { name }
    /// The source name of its microphone.
    var microphoneName: String { name + "_mic" }

    /// `device.bus=bluetooth device.form_factor=headset`.
    static func bluetoothHeadset(_ name: String, _ description: String = "BT Headset", microphone: Bool = false) -> Self {
        Self(name: name, properties: ["device.bus": "bluetooth", "device.form_factor": "headset", "device.description": description],
             hasMicrophone: microphone)
    }

    /// `device.bus=usb device.form_factor=headset`.
    static func wiredHeadset(_ name: String, _ description: String = "USB Headset") -> Self {
        Self(name: name, properties: ["device.bus": "usb", "device.form_factor": "headset", "device.description": description])
    }

    /// `device.form_factor=handset`.
    static func earpiece(_ name: String = "handset", _ description: String = "Earpiece") -> Self {
        Self(name: name, properties: ["device.form_factor": "handset", "device.description": description])
    }

    /// `device.form_factor=internal`.
    static func speakerphone(_ name: String = "builtin", _ description: String = "Built-in Speaker", microphone: Bool = false) -> Self {
        Self(name: name, properties: ["device.form_factor": "internal", "device.description": description], hasMicrophone: microphone)
    }

    /// An HDMI-like output (`device.form_factor=tv`, which the classifier calls external) that
    /// both servers rank above every other sink here, so that either picks it by itself:
    /// PulseAudio 16 from `device.class=sound` (`pa_device_init_priority` gives it 9000),
    /// WirePlumber from `priority.session`. (`device.priority` is read by neither.)
    static func hdmi(_ name: String = "hdmi_tv", _ description: String = "HDMI TV") -> Self {
        Self(name: name, properties: ["device.form_factor": "tv", "device.description": description]
            .merging(highPriority) { $1 })
    }

    /// A bare null sink (virtual), with nothing but its description, or also ranked above
    /// everything else (see ``hdmi(_:_:)``): still virtual, as a null sink's driver
    /// (PulseAudio) or factory (PipeWire) shows.
    static func virtual(_ name: String = "virtual_sink", _ description: String = "Virtual Sink", highPriority: Bool = false) -> Self {
        Self(name: name, properties: ["device.description": description].merging(highPriority ? Self.highPriority : [:]) { $1 })
    }

    private static let highPriority = ["device.class": "sound", "priority.session": "3000"]

    /// The `load-module module-null-sink` arguments, quoted as `SandboxServer.loadNullSink`
    /// quotes them so that both servers read them alike.
    var moduleArguments: String {
        "sink_name=\(name) sink_properties=\"\(Self.quoted(pairedProperties))\""
    }

    /// The `load-module module-pipe-source` arguments of its microphone, its FIFO in `directory`.
    func microphoneArguments(directory: String) -> String {
        var properties = pairedProperties
        properties["device.description"] = (properties["device.description"] ?? name) + " Microphone"
        // A media name of its own: WirePlumber keeps a pipe source's mute by it, and every pipe
        // source would share "pipe" (one muted microphone would come back muted as another).
        properties["media.name"] = microphoneName
        return "source_name=\(microphoneName) file=\(directory)/\(microphoneName).fifo source_properties=\"\(Self.quoted(properties))\""
    }

    /// The properties, with the bus path that pairs output and microphone when there is one,
    /// and the sandbox's common ones (real volume and mute on PipeWire 1.x).
    private var pairedProperties: [String: String] {
        VirtualDeviceProperties.adding(
            to: hasMicrophone ? properties.merging(["device.bus_path": "routekit-test-" + name]) { $1 } : properties)
    }

    private static func quoted(_ properties: [String: String]) -> String {
        properties.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    }
}

/// Every event a manager announced, in order, and waits on them.
actor RouteEventRecorder {
    private(set) var events: [AudioRouteEvent] = []
    private var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
    private var nextListener = 0
    private var task: Task<Void, Never>?

    /// Records `manager`'s events from now on (before `start()`, to see the first route).
    static func recording(_ manager: AudioDeviceManager) async -> RouteEventRecorder {
        let recorder = RouteEventRecorder()
        await recorder.follow(manager.events())
        return recorder
    }

    private func follow(_ stream: AsyncStream<AudioRouteEvent>) {
        task = Task { [weak self] in
            for await event in stream { await self?.append(event) }
        }
    }

    private func append(_ event: AudioRouteEvent) {
        events.append(event)
        for listener in listeners.values { listener.yield() }
    }

    /// A tick after each event from now on.
    func ticks() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextListener
        nextListener += 1
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.removeListener(id) } }
        return stream
    }

    private func removeListener(_ id: Int) { listeners.removeValue(forKey: id) }

    /// How many events so far: a mark for ``routeChanges(after:)`` and ``waitForRoute(to:after:timeout:)``.
    var count: Int { events.count }

    /// The route changes recorded after `mark`.
    func routeChanges(after mark: Int = 0) -> [RouteChange] {
        events.dropFirst(mark).compactMap(RouteChange.init)
    }

    /// The failed switches recorded after `mark`.
    func switchFailures(after mark: Int = 0) -> [(device: AudioDevice, reason: SwitchFailure)] {
        events.dropFirst(mark).compactMap {
            guard case .switchFailed(let device, let reason) = $0 else { return nil }
            return (device, reason)
        }
    }

    /// Waits for the first route change after `mark` that goes to `device`, and returns it.
    @discardableResult
    func waitForRoute(to device: AudioDevice.ID, after mark: Int, timeout: Duration = .seconds(10)) async throws -> RouteChange {
        let ticks = ticks()
        do {
            return try await withTimeout("a route change to \(device)", timeout) {
                if let found = await self.firstRoute(to: device, after: mark) { return found }
                for await _ in ticks {
                    if let found = await self.firstRoute(to: device, after: mark) { return found }
                }
                throw TimedOut(what: "a route change to \(device) (the event stream ended)")
            }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); events since: \(transcript(after: mark))")
        }
    }

    private func firstRoute(to device: AudioDevice.ID, after mark: Int) -> RouteChange? {
        routeChanges(after: mark).first { $0.to?.id == device }
    }

    /// Waits until an event after `mark` matches.
    func waitForEvent(_ what: String, after mark: Int, timeout: Duration = .seconds(10),
                      where matches: @escaping @Sendable (AudioRouteEvent) -> Bool) async throws {
        let ticks = ticks()
        do {
            try await withTimeout(what, timeout) {
                if await self.hasEvent(after: mark, matches) { return }
                for await _ in ticks {
                    if await self.hasEvent(after: mark, matches) { return }
                }
                throw TimedOut(what: "\(what) (the event stream ended)")
            }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); events since: \(transcript(after: mark))")
        }
    }

    private func hasEvent(after mark: Int, _ matches: @Sendable (AudioRouteEvent) -> Bool) -> Bool {
        events.dropFirst(mark).contains(where: matches)
    }

    /// The events after `mark`, one line each, for failure messages.
    func transcript(after mark: Int = 0) -> String {
        events.dropFirst(mark).map(\.description).joined(separator: "; ")
    }
}

/// One `routeChanged` event, taken apart.
struct RouteChange: Sendable, CustomStringConvertible {
    let from: AudioDevice?
    let to: AudioDevice?
    let reason: RouteChangeReason

    init?(_ event: AudioRouteEvent) {
        guard case .routeChanged(let from, let to, let reason) = event else { return nil }
        self.from = from
        self.to = to
        self.reason = reason
    }

    var description: String { "\(from?.id.rawValue ?? "none") -> \(to?.id.rawValue ?? "none") (\(reason))" }
}

/// A sandboxed server with a manager on it and an observer beside it.
final class LiveManagerRig: Sendable {
    let server: SandboxServer
    /// The manager's own connection.
    let managerClient: PulseClient
    /// A second, independent connection: what any other client sees.
    let observer: PulseClient
    let manager: AudioDeviceManager
    let recorder: RouteEventRecorder
    private let modules = LockedValue<[String: [UInt32]]>([:])
    private let markers = Atomic<Int>(0)

    var kind: SoundServerKind { server.kind }

    private init(server: SandboxServer, managerClient: PulseClient, observer: PulseClient,
                 manager: AudioDeviceManager, recorder: RouteEventRecorder) {
        self.server = server
        self.managerClient = managerClient
        self.observer = observer
        self.manager = manager
        self.recorder = recorder
    }

    /// A manager's logger: warnings and worse only, so that test output stays readable;
    /// `ROUTEKIT_LIVE_TEST_LOG=debug` (or another level) shows more.
    static var quietLogger: Logger {
        var logger = Logger(label: "routekit.manager.live-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["ROUTEKIT_LIVE_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return logger
    }

    /// Starts a `kind` server, connects the manager's client and the observer, makes a
    /// manager (not started: plug what should be there first, then ``start()``), runs
    /// `body`, and takes it all down, also when `body` throws.
    ///
    /// `wrap` puts something between the manager and its connection (see `InterposingServer`).
    static func run(_ kind: SoundServerKind, scope: RouteScope = .system, preferences: [AudioPreference],
                    mirrorsStreams: Bool = false, wrap: (@Sendable (PulseClient) -> any AudioServer)? = nil,
                    _ body: @Sendable (LiveManagerRig) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            let managerClient = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-manager"))
            let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-observer"))
            defer {
                managerClient.shutdown()
                observer.shutdown()
            }
            try await managerClient.connect()
            try await observer.connect()
            // Each rig's lines name its sandbox: tests run side by side share the log.
            var logger = quietLogger
            logger[metadataKey: "rig"] = "\(kind):\(server.directory.split(separator: "/").last ?? "")"
            let manager = AudioDeviceManager(server: wrap?(managerClient) ?? managerClient, scope: scope,
                                             preferences: preferences, mirrorsStreams: mirrorsStreams, logger: logger)
            let recorder = await RouteEventRecorder.recording(manager)
            let rig = LiveManagerRig(server: server, managerClient: managerClient, observer: observer,
                                     manager: manager, recorder: recorder)
            do {
                try await body(rig)
            } catch {
                await manager.stop()
                throw error
            }
            await manager.stop()
        }
    }

    /// Starts the manager and waits until it has put the route where the policy says
    /// (nil: it leaves the server's choice alone).
    func start(expecting device: ConventionDevice?, streams: [StreamProcess] = [], recordings: [StreamProcess] = [],
               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if kind == .pipewire {
            // WirePlumber, not pipewire-pulse, makes a sink the default: without it at work
            // (pipewire-pulse then reports "@DEFAULT_SINK@") no switch can succeed, and the
            // failure belongs to the sandbox, not to the manager.
            try await settle("WirePlumber choosing a default sink (the sandbox's session manager at work)") {
                guard let name = try await self.defaultSink() else { return false }
                return try await self.observer.sink(named: name) != nil
            }
        }
        try await withTimeout("manager start") { try await self.manager.start() }
        if let device {
            let change: RouteChange
            do {
                change = try await recorder.waitForRoute(to: device.id, after: 0)
            } catch let timedOut as TimedOut {
                throw TimedOut(what: "\(timedOut.what)\n  now: \(await situation())")
            }
            #expect(change.reason == .started, "\(change)", sourceLocation: sourceLocation)
            try await expectRoute(on: device, streams: streams, recordings: recordings, "after start", sourceLocation: sourceLocation)
        }
    }

    // MARK: Devices

    /// Loads `device` (and its microphone) through the observer's connection and waits until
    /// the server lists it.
    @discardableResult
    func plug(_ device: ConventionDevice) async throws -> UInt32 {
        let index = try await loadQuickly(device)
        // Listed with the properties it was loaded with, on the observer's connection and, while
        // the manager is not running, on the manager's: pipewire-pulse keeps a view of the
        // graph per client, and a manager starting on a connection whose view lags would not
        // yet see the device. (A running manager follows its own connection's events.)
        for client in manager.isRunning ? [observer] : [observer, managerClient] {
            try await waitUntil("\(device) listed", observer: client) {
                guard let sink = try await client.sink(named: device.name),
                      device.properties.allSatisfy({ sink.properties[$0.key] == $0.value }) else { return false }
                guard device.hasMicrophone else { return true }
                return try await client.source(named: device.microphoneName) != nil
            }
        }
        return index
    }

    /// Loads `device` (and its microphone) and returns once the server answered, without
    /// waiting for the sink to show (for storms). Returns the sink's module.
    @discardableResult
    func loadQuickly(_ device: ConventionDevice) async throws -> UInt32 {
        let index = try await observer.loadModule("module-null-sink", arguments: device.moduleArguments)
        modules.withLock { $0[device.name] = [index] }
        if device.hasMicrophone {
            let microphone = try await observer.loadModule("module-pipe-source",
                                                           arguments: device.microphoneArguments(directory: server.directory))
            modules.withLock { $0[device.name, default: []].append(microphone) }
        }
        return index
    }

    /// Forgets every module loaded so far: after a server restart they are gone with it.
    func forgetModules() {
        modules.withLock { $0.removeAll() }
    }

    /// Unloads `device`'s modules (its microphone first) and returns once the server answered.
    func unloadQuickly(_ device: ConventionDevice) async throws {
        guard let indexes = modules.withLock({ $0.removeValue(forKey: device.name) }) else {
            Issue.record("\(device) is not plugged")
            return
        }
        for index in indexes.reversed() { try await observer.unloadModule(index) }
    }

    /// Unplugs `device` (unloads its modules) and waits until the server no longer lists it.
    func unplug(_ device: ConventionDevice) async throws {
        try await unloadQuickly(device)
        try await waitUntil("\(device) gone", observer: observer) { [observer] in
            guard try await observer.sink(named: device.name) == nil else { return false }
            guard device.hasMicrophone else { return true }
            return try await observer.source(named: device.microphoneName) == nil
        }
    }

    // MARK: Streams

    /// Starts `pacat` playing silence to `device`, optionally with a `media.role`, and waits
    /// until the server shows the stream.
    func play(on device: ConventionDevice, role: String? = nil) async throws -> StreamProcess {
        let stream = try await StreamProcess(on: server, .playback, device: device.name,
                                       properties: role.map { ["media.role": $0] } ?? [:])
        // Playing there as both the observer's connection and the manager's see it
        // (pipewire-pulse keeps a view per client; media pausing reads on the manager's).
        for client in [observer, managerClient] {
            try await waitUntil("pacat #\(stream.processID) playing on \(device)", observer: client) {
                try await self.sinkName(of: stream, on: client) == device.name
            }
        }
        return stream
    }

    /// The sink `stream` plays on now, as the observer (or `client`) reads it (nil: no such
    /// stream, or not on a sink yet).
    func sinkName(of stream: StreamProcess, on client: PulseClient? = nil) async throws -> String? {
        let client = client ?? observer
        let pid = String(stream.processID)
        guard let input = try await client.sinkInputs().first(where: { $0.properties["application.process.id"] == pid }) else {
            return nil
        }
        return try await client.sinks().first { $0.index == input.sink }?.name
    }

    /// Starts `pacat` recording from `device`'s microphone, optionally with a `media.role`, and
    /// waits until the server shows the stream.
    func record(from device: ConventionDevice, role: String? = nil) async throws -> StreamProcess {
        let stream = try await StreamProcess(on: server, .record, device: device.microphoneName,
                                       properties: role.map { ["media.role": $0] } ?? [:])
        try await waitUntil("pacat #\(stream.processID) recording from \(device)", observer: observer) {
            try await self.sourceName(of: stream) == device.microphoneName
        }
        return stream
    }

    /// The source `stream` records from now, as the observer reads it.
    func sourceName(of stream: StreamProcess) async throws -> String? {
        let pid = String(stream.processID)
        guard let output = try await observer.sourceOutputs().first(where: { $0.properties["application.process.id"] == pid }) else {
            return nil
        }
        return try await observer.sources().first { $0.index == output.source }?.name
    }

    /// The server's default source, as the observer reads it.
    func defaultSource() async throws -> String? {
        try await observer.serverInfo().defaultSourceName
    }

    /// The server's default sink, as the observer reads it.
    func defaultSink() async throws -> String? {
        try await observer.serverInfo().defaultSinkName
    }

    // MARK: Waiting

    /// Waits until `condition` holds, checking it once, then after every event the observer
    /// sees and every event the manager announces (on PipeWire also after each renewal of the
    /// observer's connection, once a second: ``whileRenewing(_:every:_:)``). On timeout, the
    /// failure carries ``situation()``.
    func settle(_ what: String, timeout: Duration = .seconds(10),
                _ condition: @escaping @Sendable () async throws -> Bool) async throws {
        let serverEvents = observer.events()
        let managerEvents = await recorder.ticks()
        let observer = observer
        let renews = kind == .pipewire
        let wait: @Sendable () async throws -> Void = {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (ticks, tick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                group.addTask { for await _ in serverEvents { tick.yield() } }
                group.addTask { for await _ in managerEvents { tick.yield() } }
                defer { group.cancelAll() }
                if try await condition() { return }
                for await _ in ticks {
                    if try await condition() { return }
                }
            }
        }
        do {
            try await withTimeout(what, timeout) {
                if renews { try await whileRenewing(observer, wait) } else { try await wait() }
            }
        } catch let timedOut as TimedOut {
            let failure = TimedOut(what: "\(timedOut.what)\n  now: \(await situation())")
            // Kept now, while the long-lived connections are open: what a new client sees
            // against what they saw (Docs/Reliability.md); the sandbox keeps its state after
            // the manager's stop beside it.
            await server.keepDiagnostics(note: failure.what)
            throw failure
        }
    }

    /// The state of things, for failure messages: the server's defaults, the manager's route,
    /// where each stream plays or records, the manager's events.
    func situation() async -> String {
        let info = try? await observer.serverInfo()
        let selected = manager.selectedAudioDevice
        let sinks = Dictionary(((try? await observer.sinks()) ?? []).map { ($0.index, $0.name) }) { first, _ in first }
        let sources = Dictionary(((try? await observer.sources()) ?? []).map { ($0.index, $0.name) }) { first, _ in first }
        let playing = ((try? await observer.sinkInputs()) ?? []).map {
            "#\($0.index)(\($0.properties["media.role"] ?? "-"))@\(sinks[$0.sink] ?? "?")\(Self.marks($0.isMuted, $0.isCorked))"
        }
        let recording = ((try? await observer.sourceOutputs()) ?? []).map {
            "#\($0.index)(\($0.properties["media.role"] ?? "-"))@\(sources[$0.source] ?? "?")"
        }
        return "default sink \(info?.defaultSinkName ?? "none"), source \(info?.defaultSourceName ?? "none");"
            + " manager route \(selected?.id.rawValue ?? "none") (output \(selected?.output?.deviceName ?? "none"),"
            + " input \(selected?.input?.deviceName ?? "none")); playing \(playing); recording \(recording);"
            + " sinks \(sinks.values.sorted()); events: \(await recorder.transcript())" + sessionManagerLog()
    }

    /// " muted", " corked", both or nothing: what a stream's line in ``situation()`` adds.
    private static func marks(_ isMuted: Bool, _ isCorked: Bool) -> String {
        (isMuted ? " muted" : "") + (isCorked ? " corked" : "")
    }

    /// On PipeWire, the end of WirePlumber's log (the server's policy: defaults are its doing).
    private func sessionManagerLog() -> String {
        guard kind == .pipewire,
              let log = try? String(contentsOfFile: server.directory + "/wireplumber.log", encoding: .utf8) else { return "" }
        let tail = log.split(separator: "\n").suffix(8).joined(separator: "\n    ")
        return "\n  sandbox processes alive: \(server.processIDs.count); wireplumber.log ends:\n    \(tail)"
    }

    /// Waits until the route is on `device` as everyone sees it, then checks the verified
    /// route: the server's default sink (read by the observer) is `device`, the manager's
    /// ``AudioDeviceManager/selectedAudioDevice`` is `device` with `device` as its output,
    /// and every stream in `streams` plays on it.
    ///
    /// For a device with a microphone, also its source is the default, the route's input,
    /// and where every stream in `recordings` records from.
    func expectRoute(on device: ConventionDevice, streams: [StreamProcess] = [], recordings: [StreamProcess] = [],
                     _ what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await settle("route on \(device) \(what)") {
            let selected = self.manager.selectedAudioDevice
            guard try await self.defaultSink() == device.name, selected?.id == device.id else { return false }
            // A microphone that came a moment after its output joins the route on the next pass.
            if device.hasMicrophone {
                guard selected?.input?.deviceName == device.microphoneName,
                      try await self.defaultSource() == device.microphoneName else { return false }
            }
            for stream in streams {
                if try await self.sinkName(of: stream) != device.name { return false }
            }
            for stream in recordings {
                if try await self.sourceName(of: stream) != device.microphoneName { return false }
            }
            return true
        }
        // The route the manager reports is the default a second connection reads, and stays
        // so: WirePlumber may move the default on by itself a moment after the wait above
        // (seen after a fallback it would not have chosen), and the manager must follow.
        try await settle("the manager's route and the server's default agreeing \(what)") {
            let info = try await self.observer.serverInfo()
            let selected = self.manager.selectedAudioDevice
            guard selected?.output?.deviceName == info.defaultSinkName else { return false }
            return !device.hasMicrophone || selected?.input?.deviceName == info.defaultSourceName
        }
    }

    /// Waits until the observer sees the server's default sink on `device` (the server's own
    /// choice, with no manager involved).
    func expectServerDefault(_ device: ConventionDevice, _ what: String) async throws {
        try await settle("the server's default on \(device) \(what)") {
            try await self.defaultSink() == device.name
        }
    }

    /// Waits until the manager has announced, after `mark`, a device list with `id` in it
    /// (or, with `present` false, without it): it has seen the change and asked for a pass.
    func waitForManagerDevices(after mark: Int, containing id: AudioDevice.ID, present: Bool = true) async throws {
        try await recorder.waitForEvent("the manager's devices \(present ? "with" : "without") \(id)", after: mark) { event in
            guard case .devicesChanged(let devices) = event else { return false }
            return devices.contains { $0.id == id } == present
        }
    }

    /// Expects that the manager moved nothing since `mark`, once every pass in flight is done
    /// and every event it sent is recorded: after the ``fence()``, a marker (a virtual sink,
    /// which no kind preference picks) is plugged, and the manager's announcement of it,
    /// which comes after every event before it, is awaited.
    func expectNoRouteChange(after mark: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await fence()
        let marker = ConventionDevice.virtual("marker_\(markers.add(1, ordering: .relaxed).newValue)", "Marker")
        let beforeMarker = await recorder.count
        try await plug(marker)
        try await waitForManagerDevices(after: beforeMarker, containing: marker.id)
        let changes = await recorder.routeChanges(after: mark)
        #expect(changes.isEmpty, "\(what): \(changes)", sourceLocation: sourceLocation)
    }

    /// Returns once the manager has finished every pass requested so far: a refresh waits
    /// for the passes in flight and then re-applies the same route (it announces nothing
    /// when the route stays), so that "nothing happened" can be asserted.
    func fence() async {
        await manager.refreshSpeakerphoneSetting()
    }
}
