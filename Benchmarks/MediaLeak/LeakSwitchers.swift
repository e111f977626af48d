import Logging
import SoundServerSandbox
import MediaControl
import PulseAudio
import RouteKit

/// What runs beside the server while a headset is unplugged mid-stream: nothing, or RouteKit.
protocol LeakSwitcher: AnyObject {
    /// The name in the results.
    var name: String { get }
    /// Starts it on `rig`'s server; returns once it acts on what happens.
    func start(_ rig: LeakRig) async throws
    /// Stops it (and waits until it has).
    func stop() async
    /// When it said it held the stream (muted it), for the round that unplugged at `instant`.
    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant?
    /// Starts what plays the tone in this round (`name`: its application name); returns once
    /// it plays, as far as the switcher can tell.
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone
}

extension LeakSwitcher {
    /// `pacat` playing the raw tone: a stream with no player to pause.
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone {
        try await ToneStream(server: rig.server, file: rig.toneFile, latency: rig.options.streamLatency, name: name)
    }
}

/// No switcher: the server (PulseAudio's own fallback, WirePlumber) moves the stream to the
/// loudspeaker and it plays on there, as users hear it today.
final class NoSwitcher: LeakSwitcher {
    let name = "nothing (the server alone)"
    func start(_ rig: LeakRig) async throws {}
    func stop() async {}
    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? { nil }
}

/// RouteKit in this process: a `PulseClient`, an `AudioDeviceManager` preferring Bluetooth
/// then the speakerphone, and a `MediaGuard` with no players, so that the stream is muted at
/// the unplug and stays muted (`unmatchedMuteDuration` 5 s) for the whole window.
final class GuardSwitcher: LeakSwitcher {
    let name = "RouteKit MediaGuard, in-process"
    private var client: PulseClient?
    private var manager: AudioDeviceManager?
    private var running: Task<Void, Never>?
    private var listening: Task<Void, Never>?
    private let held = Shared<[ContinuousClock.Instant]>([])

    /// Connects, starts the manager and the guard, and returns once the guard says it is ready.
    func start(_ rig: LeakRig) async throws {
        var logger = Logger(label: "media-leak")
        logger.logLevel = .warning
        let client = PulseClient(configuration: .init(server: rig.server.serverAddress, applicationName: "routekit-media-guard"),
                                 logger: logger)
        try await client.connect()
        let manager = AudioDeviceManager(server: client, scope: .system,
                                         preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: logger)
        let mediaGuard = MediaGuard(server: client, manager: manager, players: [],
                                    settings: MediaSettings(unmatchedMuteDuration: .seconds(5)), logger: logger)
        let events = mediaGuard.events()
        let (ready, readiness) = AsyncStream.makeStream(of: Void.self)
        let held = self.held
        listening = Task {
            for await event in events {
                switch event {
                case .ready: readiness.yield()
                case .held: held.withLock { $0.append(.now) }
                default: break
                }
            }
            readiness.finish()
        }
        try await manager.start()
        running = Task { await mediaGuard.run() }
        self.client = client
        self.manager = manager
        var iterator = ready.makeAsyncIterator()
        guard await iterator.next() != nil else { throw LeakError("the media guard stopped before it was ready") }
    }

    /// Stops the guard (it unmutes what it holds), then the manager, and disconnects.
    func stop() async {
        running?.cancel()
        await running?.value
        await listening?.value
        await manager?.stop()
        client?.shutdown()
        running = nil
        listening = nil
        manager = nil
        client = nil
    }

    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        held.withLock { $0.first { $0 > instant } }
    }
}
