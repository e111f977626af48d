import BenchmarkSupport
import Foundation
import Logging
import ProcessRunner
import PulseAudio
import RouteKit
import SoundServerSandbox

/// Why the benchmark could not go on.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}

/// One sandboxed server set up for switching, and the two connections that drive and
/// watch it: the sinks every scenario shares, plugging and unplugging headsets, and the
/// observer's waits.
///
/// The sinks, following the project's convention for virtual devices:
/// - ``speaker``: the built-in speaker (`device.form_factor=internal`), the configured
///   fallback; the default sink between rounds.
/// - ``external``: a JACK sink that each server ranks above the speaker by itself
///   (PulseAudio gives `device.api=jack` 10 000 points of priority; WirePlumber 0.4 reads
///   `priority.session`, see ``externalProperties``). RouteKit sees it as a virtual device.
/// - ``marker``: a bare null sink whose mute the fence toggles.
/// - headsets (`bluez_output.bench_N`, `device.bus=bluetooth device.form_factor=headset
///   device.api=bluez5`), a new name for every plug, so that no server remembers one as
///   its configured default.
///
/// Not `Sendable`: one task drives it from start to end.
final class Bench {
    /// The built-in speaker: the fallback.
    static let speaker = "builtin_speaker"
    /// The sink the server prefers by itself once the headset is gone.
    static let external = "jack_out"
    /// The sink whose mute fences each round off from the next.
    static let marker = "bench_marker"
    /// Which new sinks the script switches to: the Bluetooth ones.
    static let headsetPattern = #"^bluez_output\."#
    /// A Bluetooth headset, as null-sink properties.
    static let headsetProperties = [
        "device.bus": "bluetooth", "device.form_factor": "headset", "device.api": "bluez5",
    ]
    /// The external sink's properties. WirePlumber 0.4.13 adds 20 000 × (17 − position) to a
    /// sink's `priority.session` for each sink in its history of configured defaults: the
    /// configured one gets 340 000, the one configured before it 300 000 (when the headset
    /// goes, the speaker is second in that history). 320 000 puts this sink between the two:
    /// WirePlumber keeps a present configured default, but prefers this sink to the speaker
    /// once the headset is gone. PulseAudio ranks `device.api=jack` first by itself.
    ///
    /// WirePlumber 0.5 (with PipeWire 1.x) weighs differently: 30 000 more for the configured
    /// default, 20 001 − position for each earlier one in its saved stack
    /// (`default-nodes/find-selected-default-node.lua`, `state-default-nodes.lua`): there
    /// 25 000 puts this sink between the two.
    static func externalProperties(serverName: String) -> [String: String] {
        guard serverName.contains("on PipeWire "), !serverName.contains("on PipeWire 0.") else { return externalProperties }
        return externalProperties.merging(["priority.session": "25000"]) { _, new in new }
    }

    /// The external sink's properties on PulseAudio and WirePlumber 0.4.
    static let externalProperties = [
        "device.api": "jack", "device.description": "JACK sink", "priority.session": "320000",
    ]

    let server: SandboxServer
    let kind: SoundServerKind
    let signals = SignalQueue()
    /// Plugs and unplugs headsets, fences rounds, restores the fallback when a switcher does not.
    let driver: PulseClient
    /// Watches the server: its own connection, subscribed to every event, renewed when
    /// pipewire-pulse keeps telling it a stale default (see ``settleOnSpeaker()``).
    let observer: PulseClient
    /// How many times the observer's connection was renewed because it read a stale default.
    private(set) var observerReconnections = 0
    /// Counts warnings and errors instead of printing them (see ``logCounts``).
    let logger: Logger
    /// What was logged at warning level and above.
    let logCounts = LogCounts()
    private var forwarding: Task<Void, Never>?
    private var markerIndex: UInt32 = 0
    private var markerMuted = false
    private var headsetCount = 0
    /// Sinks the switcher said it switched to since ``clearReports()``.
    private(set) var reported: Set<String> = []
    /// Failed switches RouteKit reported, with the reason of the first few.
    private(set) var switchFailures: [String] = []
    /// Lines the stream player printed.
    private(set) var playerLines: [String] = []

    /// Sets up `server`: the speaker (made the configured default), the external sink and
    /// the marker, and the driver's and observer's connections.
    init(server: SandboxServer, tracing: Bool = false) async throws {
        self.tracing = tracing
        self.server = server
        kind = server.kind
        let logger = logCounts.logger(label: "route-benchmarks", level: tracing ? .debug : .warning)
        self.logger = logger
        driver = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-driver"), logger: logger)
        observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-observer"), logger: logger)
        try await driver.connect()
        try await observer.connect()
        forwarding = signals.forward(observer.events())
        _ = try await server.loadNullSink(name: Self.speaker, properties: [
            "device.form_factor": "internal", "device.description": "Built-in Speaker",
        ])
        let serverName = try await observer.serverInfo().serverName
        _ = try await server.loadNullSink(name: Self.external, properties: Self.externalProperties(serverName: serverName))
        _ = try await server.loadNullSink(name: Self.marker, properties: ["device.description": "Bench marker"])
        guard let marker = try await observer.sink(named: Self.marker) else { throw BenchError("the marker sink did not appear") }
        markerIndex = marker.index
        try await driver.setDefaultSink(Self.speaker)
        try await settleOnSpeaker()
    }

    /// Closes both connections.
    func shutdown() {
        forwarding?.cancel()
        driver.shutdown()
        observer.shutdown()
    }

    // MARK: Plugging

    /// A headset name never used before on this server.
    func nextHeadsetName() -> String {
        headsetCount += 1
        return "bluez_output.bench_\(headsetCount)"
    }

    /// When a plug or unplug was asked for, and when the server answered.
    struct Request {
        /// The instant the request was sent: the clock of every timed scenario starts here.
        var issued: ContinuousClock.Instant
        /// The instant the answer arrived: the sink exists (or is gone) and has been announced.
        var answered: ContinuousClock.Instant
    }

    /// Loads a headset's null sink through the driver's connection; returns the module and
    /// the request's instants.
    ///
    /// Not `SandboxServer.loadNullSink`: a `pactl` process's start and exit are too coarse
    /// to start a clock on, so timed plugs go through a connection of their own.
    func plugHeadset(_ name: String) async throws -> (module: UInt32, request: Request) {
        let properties = Self.headsetProperties.merging(["device.description": "Bench Headset"]) { a, _ in a }
        let list = properties.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let issued = ContinuousClock.now
        let module = try await driver.loadModule("module-null-sink", arguments: "sink_name=\(name) sink_properties=\"\(list)\"")
        let answered = ContinuousClock.now
        trace("plugged \(name)")
        return (module, Request(issued: issued, answered: answered))
    }

    /// Unloads a headset's module; returns the request's instants.
    func unplug(_ module: UInt32) async throws -> Request {
        let issued = ContinuousClock.now
        try await driver.unloadModule(module)
        let answered = ContinuousClock.now
        trace("unplugged module \(module)")
        return Request(issued: issued, answered: answered)
    }

    // MARK: Observing

    /// Waits until the observer reads `sink` as the default sink, reading the server's
    /// defaults after every server change event it receives; returns the instant of that
    /// reading, or nil after `timeout`.
    func awaitDefaultSink(_ sink: String, within timeout: Duration) async throws -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while let signal = await signals.next(before: deadline) {
            note(signal)
            guard case .server(.subscription(let event)) = signal, event.facility == .server else { continue }
            if try await observer.serverInfo().defaultSinkName == sink { return .now }
        }
        return nil
    }

    /// Waits until the observer lists at least `count` playback streams on `sink`; returns
    /// the instant of that listing, or nil after `timeout`.
    ///
    /// It lists the streams once every one of them has announced a change since the call
    /// began (one change event a stream, at least, for a move), then again after each
    /// further batch of events, so that the listing costs once, not once a stream.
    func awaitStreams(_ count: Int, onSink sink: String, within timeout: Duration) async throws -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        var sinkIndex = try await observer.sink(named: sink)?.index
        var changed = Set<UInt32>()
        var unseen = false
        /// Notes a signal, and which streams (or the sink) it says changed.
        func absorb(_ signal: Signal) {
            note(signal)
            guard case .server(.subscription(let event)) = signal else { return }
            if event.facility == .sinkInput, event.kind != .remove {
                changed.insert(event.index)
                unseen = true
            } else if event.facility == .sink, sinkIndex == nil {
                unseen = true
            }
        }
        while let signal = await signals.next(before: deadline) {
            absorb(signal)
            while let more = signals.poll() { absorb(more) }
            guard unseen, changed.count >= count else { continue }
            unseen = false
            if sinkIndex == nil { sinkIndex = try await observer.sink(named: sink)?.index }
            guard let sinkIndex else { continue }
            let streams = try await observer.sinkInputs()
            let there = streams.count(where: { $0.sink == sinkIndex })
            trace("listed: \(there) of \(count) streams on \(sink)")
            if there >= count { return .now }
        }
        return nil
    }

    /// Waits until the switcher has said it switched to `sink` (since ``clearReports()``).
    func awaitReport(_ sink: String, within timeout: Duration) async -> Bool {
        if reported.contains(sink) { return true }
        let deadline = ContinuousClock.now + timeout
        while let signal = await signals.next(before: deadline) {
            note(signal)
            if reported.contains(sink) { return true }
        }
        return false
    }

    /// Forgets what the switcher reported.
    func clearReports() { reported.removeAll() }

    /// Waits for a line of the stream player that satisfies `matches`; nil after `timeout`.
    func awaitPlayerLine(within timeout: Duration, where matches: (String) -> Bool) async -> String? {
        if let line = playerLines.first(where: matches) { return line }
        let deadline = ContinuousClock.now + timeout
        while let signal = await signals.next(before: deadline) {
            note(signal)
            if case .player(let line) = signal, matches(line) { return line }
        }
        return nil
    }

    /// Forgets what the stream player printed.
    func clearPlayerLines() { playerLines.removeAll() }

    /// Toggles the marker sink's mute and consumes every signal up to the observer's event
    /// for it: whatever the round caused on the server has then been seen and dropped.
    func fence() async throws {
        markerMuted.toggle()
        try await driver.setSinkMute(Self.marker, muted: markerMuted)
        let deadline = ContinuousClock.now + .seconds(10)
        while let signal = await signals.next(before: deadline) {
            note(signal)
            if case .server(.subscription(let event)) = signal, event.facility == .sink, event.kind == .change,
               event.index == markerIndex {
                return
            }
        }
        throw BenchError("the fence's event did not arrive within 10 s")
    }

    /// Makes the speaker the default through the driver (for switchers that do not fall
    /// back, and after a switcher stops), and waits until the observer reads it.
    ///
    /// It asks again only every 10 s: WirePlumber with a hundred streams can take that long
    /// to apply one change, and every request makes it start over.
    func settleOnSpeaker() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        var asked: ContinuousClock.Instant?
        var checked: ContinuousClock.Instant?
        while ContinuousClock.now < deadline {
            if let asked, ContinuousClock.now - (checked ?? asked) > .seconds(2) {
                checked = .now
                if try await renewObserverIfStale() { continue }
            }
            if try await observer.serverInfo().defaultSinkName == Self.speaker { return }
            if asked.map({ ContinuousClock.now - $0 > .seconds(10) }) ?? true {
                try await driver.setDefaultSink(Self.speaker)
                asked = .now
            }
            // The change event may have been consumed already: read again after a second at most.
            if try await awaitDefaultSink(Self.speaker, within: .seconds(1)) != nil { return }
        }
        let now = try? await observer.serverInfo().defaultSinkName
        let metadata = await metadata()
        throw BenchError("the server did not make \(Self.speaker) the default within 60 s (it shows \(now ?? "none")); "
                         + "\(server.processIDs.count) of the sandbox's processes still run\n\(logTails())\n\(metadata)")
    }

    /// PipeWire's `default` metadata (`pw-metadata -n default`), for errors; empty elsewhere.
    func metadata() async -> String {
        guard kind == .pipewire else { return "" }
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let run = try? await ChildProcess.run(["/usr/bin/env", "pw-metadata", "-n", "default"],
                                                    environment: environment, timeLimit: .seconds(10)) else { return "" }
        return "==> pw-metadata -n default <==\n" + run.standardOutput + run.standardError
    }

    /// Whether a new connection reads the speaker as the default while the observer does
    /// not: a pipewire-pulse connection misses a change of the default made while another
    /// client binds PipeWire's "default" metadata, for good (Docs/Reliability.md, "The PipeWire
    /// default that never reaches long-lived connections"). If so, the observer's connection is
    /// renewed.
    private func renewObserverIfStale() async throws -> Bool {
        let probe = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-probe"), logger: logger)
        defer { probe.shutdown() }
        try await probe.connect()
        let fresh = try await probe.serverInfo().defaultSinkName
        let seen = try await observer.serverInfo().defaultSinkName
        guard fresh == Self.speaker, seen != Self.speaker else { return false }
        report("  pipewire-pulse still tells the observer's connection \(seen ?? "none") while a new connection reads "
               + "\(Self.speaker): the observer's connection is renewed")
        try await observer.renewConnection()
        observerReconnections += 1
        return true
    }

    /// The last lines of the sandbox's daemon logs, for errors.
    func logTails() -> String {
        let names = ["pulseaudio.log", "pipewire.log", "wireplumber.log", "pipewire-pulse.log"]
        return names.compactMap { name -> String? in
            guard let data = FileManager.default.contents(atPath: server.directory + "/" + name), !data.isEmpty else { return nil }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(6)
            return "==> \(name) <==\n" + lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Waits until the observer lists `count` streams on `sink`, moving the ones left
    /// elsewhere through the driver every 5 s; returns how many it had to move.
    func gatherStreams(_ count: Int, on sink: String) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        var moved = 0
        var lastMove = ContinuousClock.now
        while ContinuousClock.now < deadline {
            guard let index = try await observer.sink(named: sink)?.index else { throw BenchError("\(sink) is gone") }
            let streams = try await observer.sinkInputs()
            let elsewhere = streams.filter { $0.sink != index }
            if streams.count - elsewhere.count >= count { return moved }
            if ContinuousClock.now - lastMove > .seconds(5) {
                for stream in elsewhere {
                    try? await driver.moveSinkInput(stream.index, toSink: sink)
                    moved += 1
                }
                lastMove = .now
            }
            // Wait for the next events, or 100 ms.
            if let signal = await signals.next(before: .now + .milliseconds(100)) {
                note(signal)
                while let more = signals.poll() { note(more) }
            }
        }
        throw BenchError("\(count) streams did not all reach \(sink) within 60 s")
    }

    /// Whether to print every signal but the observer's events, and count RouteKit's debug
    /// messages too (`--trace`).
    let tracing: Bool
    /// Where trace times count from.
    static let processStart = ContinuousClock.now

    /// Prints `text` with the time since the start, when tracing.
    func trace(_ text: @autoclosure () -> String) {
        if tracing { report("  \(format((ContinuousClock.now - Self.processStart).milliseconds)) \(text())") }
    }

    /// Records what a signal says about the switcher or the player.
    func note(_ signal: Signal) {
        if tracing {
            let time = format((ContinuousClock.now - Self.processStart).milliseconds)
            switch signal {
            case .server(let event): if case .subscription(let change) = event, change.facility == .server { report("  \(time) server change") }
            default: report("  \(time) \(signal)")
            }
        }
        switch signal {
        case .route(.routeChanged(_, let to, _)):
            if let sink = to?.output?.deviceName { reported.insert(sink) }
        case .route(.switchFailed(let device, let reason)):
            if switchFailures.count < 1000 { switchFailures.append("\(device.id): \(reason)") }
        case .script(let line), .floor(let line):
            if line.hasPrefix("switched ") { reported.insert(String(line.dropFirst("switched ".count))) }
            if line.hasPrefix("fell back ") { reported.insert(String(line.dropFirst("fell back ".count))) }
        case .daemon(let line):
            // `route: NAME (description) <- …`: the daemon's device ids are its sinks' names.
            if line.hasPrefix("route: "), let name = line.dropFirst("route: ".count).split(separator: " ").first {
                reported.insert(String(name))
            }
        case .player(let line):
            playerLines.append(line)
        case .server, .route, .outside:
            break
        }
    }
}
