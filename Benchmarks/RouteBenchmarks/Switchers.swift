import BenchmarkSupport
import Foundation
import PulseAudio
import RouteKit
import SoundServerSandbox
import Synchronization

/// Something that makes a newly connected headset the default sink: RouteKit, the server's
/// own module, or a script. One runs at a time; each is started and stopped several times
/// in a run, so that all three meet the same machine load.
protocol Switcher: AnyObject {
    /// Its name in the output.
    var name: String { get }
    /// Whether it says when a switch is complete (so that the round can wait for it before
    /// the next step); one that does not acts inside the server, before the event is out.
    var reportsSwitches: Bool { get }
    /// Whether it makes a configured fallback the default when the headset goes.
    var fallsBack: Bool { get }
    /// Starts it; it acts on the next event.
    func start(_ bench: Bench) async throws
    /// Stops it.
    func stop(_ bench: Bench) async
}

/// RouteKit's `AudioDeviceManager` in system scope, with its own connection, preferring
/// Bluetooth and then the speakerphone.
final class RouteKitSwitcher: Switcher {
    let name = "RouteKit in-process"
    let reportsSwitches = true
    let fallsBack = true
    private var client: PulseClient?
    private var manager: AudioDeviceManager?
    private var forwarding: Task<Void, Never>?
    /// The manager's own timings of every run so far.
    private(set) var collectedTimings: [SwitchTiming] = []

    /// Connects, starts a manager and forwards its events to the bench.
    func start(_ bench: Bench) async throws {
        let client = PulseClient(configuration: .init(server: bench.server.serverAddress, applicationName: "routekit-manager",
                                                      subscription: .devices),
                                 logger: bench.logger)
        try await client.connect()
        let manager = AudioDeviceManager(server: client, scope: .system, preferences: [.kind(.bluetooth), .kind(.speakerphone)],
                                         logger: bench.logger)
        let events = manager.events()
        let signals = bench.signals
        forwarding = Task {
            for await event in events { signals.push(.route(event)) }
        }
        try await manager.start()
        self.client = client
        self.manager = manager
    }

    /// Stops the manager (which puts back the default it found) and disconnects.
    func stop(_ bench: Bench) async {
        collectedTimings += manager?.switchTimings ?? []
        await manager?.stop()
        await forwarding?.value
        client?.shutdown()
        manager = nil
        client = nil
        forwarding = nil
    }

    /// Per switch timed so far, by scenario: the engine's own instants and the observer's
    /// reading, each against the driver's answer (negative: before it).
    private(set) var timelines: [Scenario: [[Duration]]] = [:]

    /// Places the manager's newest switch (one whose first event came after `issued`) on
    /// the round's timeline: event received, lookups answered, decided, request answered, and
    /// `seen`, the observer's reading; all from `answered`.
    func noteTimeline(_ scenario: Scenario, issued: ContinuousClock.Instant, answered: ContinuousClock.Instant,
                      seen: ContinuousClock.Instant) {
        guard let timing = manager?.switchTimings.last, timing.received > issued else { return }
        let received = timing.received - answered
        let lookedUp = received + timing.queueHop + timing.lookups
        let decided = lookedUp + timing.decision
        timelines[scenario, default: []].append([received, lookedUp, decided, decided + timing.request, seen - answered])
    }

    /// The devices the manager sees, for the setup's sanity check.
    func devices() async -> [AudioDevice] {
        (try? await manager?.allDevices) ?? []
    }
}

/// `routectl daemon` (the release build beside this benchmark), a process of its own as users
/// run it, preferring Bluetooth and then the speakerphone. Its `route:` lines are its reports.
final class DaemonSwitcher: Switcher {
    let name = "RouteKit daemon"
    let reportsSwitches = true
    let fallsBack = true
    private var process: LineEmittingProcess?

    /// The release `routectl`, beside this benchmark's executable.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("routectl").path
    }

    /// Whether the release `routectl` is built.
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts the daemon and returns once it says it runs.
    func start(_ bench: Bench) async throws {
        var environment = bench.server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let signals = bench.signals
        let running = Mutex(false)
        process = try await LineEmittingProcess(
            executable: Self.executable, arguments: ["daemon", "--prefer", "bluetooth", "--prefer", "speakerphone"],
            environment: environment
        ) { _, line in
            if line.hasPrefix("daemon: running") { running.withLock { $0 = true } }
            signals.push(.daemon(line))
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if running.withLock({ $0 }) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchError("routectl daemon did not say it runs within 10 s")
    }

    /// SIGTERM: the daemon puts back what it changed, then exits.
    func stop(_ bench: Bench) async {
        await process?.stop()
        process = nil
    }
}

/// `module-switch-on-connect`, loaded into the server: `ignore_virtual=0`, or PulseAudio
/// ignores null sinks.
final class ModuleSwitcher: Switcher {
    let name = "module-switch-on-connect"
    let reportsSwitches = false
    let fallsBack = false
    private var module: UInt32?

    /// Loads the module.
    func start(_ bench: Bench) async throws {
        module = try await bench.driver.loadModule("module-switch-on-connect", arguments: "ignore_virtual=0")
    }

    /// Unloads the module.
    func stop(_ bench: Bench) async {
        if let module { try? await bench.driver.unloadModule(module) }
        module = nil
    }
}

/// `Benchmarks/Helpers/switch-on-connect.sh` (a `pactl subscribe | while read` loop), run
/// with bash against the sandbox; its "switched" and "fell back" lines are its reports.
final class ScriptSwitcher: Switcher {
    let name = "pactl subscribe script"
    let reportsSwitches = true
    let fallsBack = true
    private var process: LineEmittingProcess?

    /// Where the script is, beside this source folder.
    static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/switch-on-connect.sh").path

    /// Starts bash on the script, and returns once its `pactl subscribe` is among the
    /// server's clients, and 200 ms later: it subscribes once its connection is ready, which
    /// pipewire-pulse makes it wait for. (The warm-up round catches a later subscription.)
    func start(_ bench: Bench) async throws {
        guard FileManager.default.fileExists(atPath: Self.scriptPath) else {
            throw BenchError("the script is missing: \(Self.scriptPath)")
        }
        var environment = bench.server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let signals = bench.signals
        process = try await LineEmittingProcess(
            executable: "/bin/bash", arguments: [Self.scriptPath, Bench.headsetPattern, Bench.speaker],
            environment: environment, wholeGroup: true
        ) { _, line in signals.push(.script(line)) }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let clients = try await bench.observer.clients()
            if clients.contains(where: { $0.properties["application.process.binary"] == "pactl" }) {
                try await Task.sleep(for: .milliseconds(200))
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchError("the script's pactl subscribe did not connect within 10 s")
    }

    /// Ends bash, `pactl subscribe` and the loop: the whole process group.
    func stop(_ bench: Bench) async {
        await process?.stop()
        process = nil
    }
}
