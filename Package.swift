// swift-tools-version: 6.1
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode (the tools version's default) plus the
/// upcoming features that keep the code explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "RouteKit",
    products: [
        .library(name: "PulseAudio", targets: ["PulseAudio"]),
        .library(name: "RouteKit", targets: ["RouteKit"]),
        .library(name: "PipeWireDefaults", targets: ["PipeWireDefaults"]),
        .library(name: "DumpReader", targets: ["DumpReader"]),
        .library(name: "RouteKitTesting", targets: ["RouteKitTesting"]),
        .library(name: "SoundServerSandbox", targets: ["SoundServerSandbox"]),
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "AudioContext", targets: ["AudioContext"]),
        .library(name: "MediaControl", targets: ["MediaControl"]),
        .library(name: "MPRIS", targets: ["MPRIS"]),
        .library(name: "ScreenLock", targets: ["ScreenLock"]),
        .executable(name: "routectl", targets: ["routectl"]),
        .executable(name: "routekit-sandbox", targets: ["routekit-sandbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // No Foundation trait: the runner reads bytes and lines, never `Data`.
        .package(url: "https://github.com/swiftlang/swift-subprocess", .upToNextMinor(from: "1.0.2"), traits: []),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // routectl daemon's configuration file (TOML), with the line of a syntax error.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // libpulse, as a system library (sd-bus is the other C library linked). Its headers
        // live in /usr/include (no pkgConfig: libpulse.pc's -pthread makes SwiftPM warn).
        .systemLibrary(
            name: "CPulseAudio",
            providers: [.apt(["libpulse-dev"])]
        ),
        // Text from outside made safe to show: escapes for control and format characters, for
        // the command line's output and every error message that quotes a client. No dependencies.
        .target(
            name: "TextSupport",
            swiftSettings: strictSettings
        ),
        // Locks ThreadSanitizer can see: Synchronization.Mutex plus its annotations, which
        // CThreadSanitizerHooks calls only when ThreadSanitizer's runtime is linked.
        .target(name: "CThreadSanitizerHooks"),
        .target(
            name: "ConcurrencySupport",
            dependencies: ["CThreadSanitizerHooks"],
            swiftSettings: strictSettings
        ),
        // routectl's executors: a worker pool that sleeps while idle (no libdispatch timer),
        // installed as Swift's default executor by the routectl executable only.
        // Its semaphores (POSIX sem_t, with sem_clockwait, which Swift's Glibc leaves out).
        .target(name: "CPoolSemaphore"),
        .target(
            name: "WorkerPool",
            dependencies: ["CPoolSemaphore"],
            swiftSettings: strictSettings
        ),
        // The only Swift module that imports libpulse. Every C callback lives here.
        .target(
            name: "PulseAudio",
            dependencies: [
                "ConcurrencySupport",
                "CPulseAudio",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The one place that starts processes: swift-subprocess, plus what every caller shares
        // (long-lived children signalled by pid, their lines, process groups, time limits).
        .target(
            name: "ProcessRunner",
            dependencies: [
                "ConcurrencySupport",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        // The engine: device model, classifier, device list, policy and manager. Plain Swift
        // over the AudioServer protocol; it uses PulseAudio's value types but never calls libpulse.
        .target(
            name: "RouteKit",
            dependencies: [
                "ConcurrencySupport",
                "TextSupport",
                "PulseAudio",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // PipeWire's own defaults and settings, read and written with its tools (pw-metadata,
        // wpctl): the configured defaults RouteKit's stop() puts back, WirePlumber's settings.
        // Apart from the engine, which needs no child process.
        .target(
            name: "PipeWireDefaults",
            dependencies: ["RouteKit", "ProcessRunner"],
            swiftSettings: strictSettings
        ),
        // sd-bus from libsystemd, as a system library: headers in /usr/include/systemd, and a
        // shim that applies sd-bus's vtable macros in C (no pkgConfig, as for libpulse).
        .systemLibrary(
            name: "CSystemdBus",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The only Swift module that imports sd-bus: one thread per connection, every C
        // callback, Sendable values in and out.
        .target(
            name: "DBus",
            dependencies: [
                "ConcurrencySupport",
                "CSystemdBus",
                "TextSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The daemon's D-Bus API: io.github.routekit.RouteKit1 and callaudiod's interface, over
        // DBus, driving an AudioDeviceManager. Deciding is pure; EngineDriver performs.
        .target(
            name: "RouteKitDBus",
            dependencies: [
                "ConcurrencySupport",
                "DBus", "PulseAudio", "RouteKit", "TextSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Pausing media when the private output it plays on goes, resuming what it paused, and
        // holding media during calls. Plain Swift: players come through MediaPlayerControl.
        .target(
            name: "MediaControl",
            dependencies: [
                "ConcurrencySupport",
                "PulseAudio", "RouteKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Whether the screen is locked and the user idle: systemd-logind's session on the system
        // bus, and the desktop's screensaver on the session bus, combined into one state.
        .target(
            name: "ScreenLock",
            dependencies: [
                "ConcurrencySupport",
                "DBus",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Context monitors: silent mode, volume-button capture on the default output, evdev keys.
        .target(
            name: "AudioContext",
            dependencies: [
                "ConcurrencySupport", "PulseAudio", "RouteKit", "TextSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The MPRIS media players of the session bus as a MediaPlayerControl: found, followed
        // and commanded over DBus.
        .target(
            name: "MPRIS",
            dependencies: [
                "ConcurrencySupport",
                "DBus", "MediaControl",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Reads pasted `pactl`/`pacmd`/PipeWire dumps from bug reports into PulseAudio's values.
        .target(
            name: "DumpReader",
            dependencies: ["PulseAudio"],
            swiftSettings: strictSettings
        ),
        // A scriptable simulated server for users' tests: cards, ports and profiles.
        .target(
            name: "RouteKitTesting",
            dependencies: ["ConcurrencySupport", "RouteKit", "PulseAudio", "DumpReader"],
            swiftSettings: strictSettings
        ),
        // Isolated PulseAudio and PipeWire servers with virtual devices, for tests and demos.
        .target(
            name: "SoundServerSandbox",
            dependencies: ["ConcurrencySupport", "ProcessRunner", "TextSupport"],
            swiftSettings: strictSettings
        ),
        // routectl daemon's composition: the context, persistence, configuration and its
        // reloading, preference layering and the routing service, as a library the command
        // and the tests use.
        .target(
            name: "RouteKitDaemon",
            dependencies: [
                "ConcurrencySupport",
                "AudioContext",
                "DBus",
                "MediaControl",
                "MPRIS",
                "PipeWireDefaults",
                "PulseAudio",
                "RouteKit",
                "RouteKitDBus",
                "ScreenLock",
                "TextSupport",
                "WorkerPool",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strictSettings
        ),
        // `routectl`'s commands, as a library so that tests can run them; what the daemon
        // runs is RouteKitDaemon's.
        .target(
            name: "RouteCtlCommands",
            dependencies: [
                "ConcurrencySupport",
                "AudioContext",
                "DBus",
                "ProcessRunner",
                "DumpReader",
                "PulseAudio",
                "RouteKit",
                "RouteKitDBus",
                "RouteKitDaemon",
                "TextSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "routectl",
            dependencies: [
                "RouteCtlCommands",
                "WorkerPool",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Runs a command against a sandboxed server with virtual devices (the demo uses it).
        .executableTarget(
            name: "routekit-sandbox",
            dependencies: [
                "ProcessRunner",
                "SoundServerSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // What the benchmarks share: percentiles, and the pactl subscribe baseline.
        .target(
            name: "BenchmarkSupport",
            dependencies: ["ProcessRunner", "SoundServerSandbox"],
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "devicelist-benchmarks",
            dependencies: ["BenchmarkSupport", "PulseAudio", "RouteKit", "RouteKitTesting", "SoundServerSandbox"],
            path: "Benchmarks/DeviceListBenchmarks",
            swiftSettings: strictSettings
        ),
        // The engine's decision step alone, on a simulated server.
        .executableTarget(
            name: "decision-benchmarks",
            dependencies: ["BenchmarkSupport", "RouteKit", "RouteKitTesting", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/DecisionBenchmarks",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pulse-benchmarks",
            dependencies: ["BenchmarkSupport", "PulseAudio", "SoundServerSandbox"],
            path: "Benchmarks/PulseBenchmarks",
            swiftSettings: strictSettings
        ),
        // Switch latency against module-switch-on-connect and a `pactl subscribe` script.
        .executableTarget(
            name: "route-benchmarks",
            dependencies: [
                "BenchmarkSupport", "ProcessRunner", "PulseAudio", "RouteKit", "SoundServerSandbox",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/RouteBenchmarks",
            swiftSettings: strictSettings
        ),
        // Sound on the loudspeaker after a headset is unplugged mid-stream: nothing against MediaGuard.
        .executableTarget(
            name: "media-leak-benchmarks",
            dependencies: [
                "BenchmarkSupport", "DBus", "MediaControl", "MPRIS", "ProcessRunner", "PulseAudio", "RouteKit",
                "SoundServerSandbox", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Benchmarks/MediaLeak",
            swiftSettings: strictSettings
        ),
        // `routectl list --from-dump` on hostile inputs of 1 MB and 10 MB: time and peak memory.
        .executableTarget(
            name: "dump-benchmarks",
            dependencies: ["ProcessRunner"],
            path: "Benchmarks/DumpBenchmarks",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pulse-soak",
            dependencies: ["PulseAudio", "SoundServerSandbox"],
            path: "Benchmarks/PulseSoak",
            swiftSettings: strictSettings
        ),
        // The DBus module under load, for scripts/leak-check: calls, signals, objects, loss.
        .executableTarget(
            name: "dbus-soak",
            dependencies: ["DBus", "TestSupport"],
            path: "Benchmarks/DBusSoak",
            swiftSettings: strictSettings
        ),
        // What the test targets share: waiting on events without sleeping, pacat streams.
        .target(
            name: "TestSupport",
            dependencies: ["ConcurrencySupport", "ProcessRunner", "PulseAudio", "RouteKit", "SoundServerSandbox",
                           .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PulseAudioTests",
            dependencies: ["ConcurrencySupport", "ProcessRunner", "PulseAudio", "SoundServerSandbox", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RouteKitTests",
            dependencies: [
                "ConcurrencySupport",
                "MediaControl", "PipeWireDefaults", "RouteKit", "RouteKitTesting", "PulseAudio", "SoundServerSandbox", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // The dump reader on real and hostile dumps, and the classifier on the corpus.
        .testTarget(
            name: "DumpReaderTests",
            dependencies: [
                "DumpReader", "RouteKit", "PulseAudio", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RouteKitTestingTests",
            dependencies: ["ConcurrencySupport", "RouteKitTesting", "RouteKit", "DumpReader", "PulseAudio", "SoundServerSandbox", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Silent mode and volume capture on both real servers and the simulated one; evdev records.
        .testTarget(
            name: "AudioContextTests",
            dependencies: [
                "AudioContext", "PulseAudio", "RouteKit", "RouteKitTesting", "SoundServerSandbox", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SoundServerSandboxTests",
            dependencies: ["ConcurrencySupport", "SoundServerSandbox"],
            swiftSettings: strictSettings
        ),
        // The sd-bus wrapper against a private dbus-daemon: values, objects, signals, names, loss.
        .testTarget(
            name: "DBusTests",
            dependencies: ["ConcurrencySupport", "DBus", "ProcessRunner", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // The screen lock monitor against python3-dbusmock's logind and screensaver on private buses.
        .testTarget(
            name: "ScreenLockTests",
            dependencies: [
                "ConcurrencySupport",
                "ScreenLock", "DBus", "ProcessRunner", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The D-Bus API's decisions, without a bus or a server.
        .testTarget(
            name: "RouteKitDBusTests",
            dependencies: ["RouteKitDBus", "DBus", "RouteKit", "PulseAudio"],
            swiftSettings: strictSettings
        ),
        // Media pausing's decisions, without a server.
        .testTarget(
            name: "MediaControlTests",
            dependencies: [
                "ConcurrencySupport", "MediaControl", "PulseAudio", "RouteKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // MPRISPlayers' decisions, then against fake players (dbusmock) and mpv with playerctl.
        .testTarget(
            name: "MPRISTests",
            dependencies: [
                "ConcurrencySupport",
                "DBus", "MediaControl", "MPRIS", "ProcessRunner", "PulseAudio", "SoundServerSandbox", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Resources"],
            swiftSettings: strictSettings
        ),
        // The Swift blocks of README.md and Docs/*.md, written to Examples/Generated by
        // scripts/extract-doc-examples, compiled against the library products as an embedding
        // application sees them: without package access, no `package` symbol compiles.
        .testTarget(
            name: "DocsExamples",
            dependencies: [
                "AudioContext", "DBus", "MediaControl", "MPRIS", "PulseAudio", "RouteKit", "ScreenLock",
                "SoundServerSandbox", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/DocsExamplesTests/Examples",
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // Fails when the docs' Swift blocks and Examples/Generated drift apart.
        .testTarget(
            name: "DocsExamplesTests",
            dependencies: ["ProcessRunner"],
            exclude: ["Examples", "README.md"],
            swiftSettings: strictSettings
        ),
        // Places test threads (affinity, SCHED_IDLE): WorkerPoolTests starve a thread on purpose.
        .target(name: "CThreadPlacement", path: "Tests/CThreadPlacement"),
        // The generic concurrency pieces: deadlines, reading order and lanes, the input queue.
        .testTarget(
            name: "ConcurrencySupportTests",
            dependencies: ["ConcurrencySupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorkerPoolTests",
            dependencies: ["WorkerPool", "CThreadPlacement"],
            swiftSettings: strictSettings
        ),
        // The daemon library without a process: configuration files (read, fuzzed, reloaded),
        // the state file, ringing's keys.
        .testTarget(
            name: "RouteKitDaemonTests",
            dependencies: [
                "AudioContext", "ConcurrencySupport", "MediaControl", "PulseAudio", "RouteKit", "RouteKitDaemon", "RouteKitTesting",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RouteCtlTests",
            dependencies: ["ConcurrencySupport", "ProcessRunner", "RouteCtlCommands", "RouteKitDaemon", "DBus", "MediaControl", "PipeWireDefaults", "PulseAudio",
                           "RouteKit", "RouteKitTesting",
                           "SoundServerSandbox", "TestSupport", "TextSupport"],
            swiftSettings: strictSettings
        ),
    ]
)

// The sanitizer builds (scripts/sanitized-tests) compile only the test targets they run and
// what those depend on: routectl's tests, which run routectl and its daemon as other
// processes, stay with the plain runs, and leaving them, the daemon library, the command line
// and the benchmarks out saves CI a third of each sanitizer build.
if Context.environment["ROUTEKIT_SANITIZED_SUBSET"] == "1" {
    let sanitizedTests: Set<String> = [
        "PulseAudioTests", "DBusTests", "RouteKitDBusTests", "RouteKitTests", "MediaControlTests",
        "AudioContextTests", "ScreenLockTests", "MPRISTests", "RouteKitTestingTests",
    ]
    let targets = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept = Set<String>()
    var pending = Array(sanitizedTests)
    while let name = pending.popLast() {
        guard kept.insert(name).inserted, let target = targets[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    // Each product is named after its one target.
    package.products.removeAll { !kept.contains($0.name) }
}
