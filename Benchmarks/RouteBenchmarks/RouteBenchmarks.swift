import BenchmarkSupport
import Foundation
import PulseAudio
import RouteKit
import SoundServerSandbox

/// Switch latency, side by side on the same isolated servers in the same run, for four
/// switchers: `routectl daemon` (RouteKit as users run it, a process of its own), RouteKit's
/// `AudioDeviceManager` inside this process (which also reports where its time goes), the
/// server's `module-switch-on-connect`, and a `pactl subscribe | while read` script. A separate observer connection times each
/// switch, from the driver's trigger request (load or unload a headset's null sink) to the
/// observer reading the outcome (Docs/Benchmarks.md defines each figure):
///
/// 1. a Bluetooth headset appears → the observer reads it as the default sink;
/// 2. the headset goes → the observer reads the configured fallback (a speaker the server
///    would not pick by itself) as the default sink;
/// 3. a headset appears while 1, 50 or the most streams a sink takes play on the speaker →
///    the observer lists every stream on the headset.
///
/// Usage: route-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--stream-rounds N]
///        [--streams N ...] [--no-streams] [--no-idle] [--idle-seconds N] [--gap-ms N] [--only NAME] [--trace] [--floor]
///
/// `--floor` runs ``FloorComparison`` instead: RouteKit against the floor client, timed by an
/// outside observer (`--rounds` and `--stream-rounds` count for each switcher, in two turns;
/// `--streams` defaults as for the other run: 1, 50 and 250 on PulseAudio, 1 and 50 on PipeWire).
/// `--gap-ms` is the quiet time before each plug and unplug (20 ms by default, as between a
/// user's plugs: a switcher's own work after a switch, such as the daemon's reads 5 ms later,
/// is not counted against the next one; 0 runs the steps back to back).
/// `--only` keeps the switchers whose name starts with NAME (`routekit`, `module`, `pactl`);
/// the daemon needs the release `routectl` built beside this executable;
/// `--trace` prints what the switchers report as it happens, and counts RouteKit's debug
/// messages as well as its warnings.
@main
enum RouteBenchmarks {
    /// What the command line asks for.
    struct Options {
        /// The servers, in order (both by default).
        var kinds: [SoundServerKind] = []
        /// Rounds of scenarios 1 and 2 for each switcher.
        var rounds = 200
        /// Rounds of scenario 3 for each switcher and stream count.
        var streamRounds = 3
        /// The stream counts; empty for ``StreamPlayer/defaultCounts(on:)``.
        var streamCounts: [Int] = []
        /// Whether to run scenario 3.
        var streams = true
        /// Whether to measure the idle cost.
        var idle = true
        /// How long the daemon's idle wake-ups are counted.
        var idleSeconds = 60
        /// Whether to print what the switchers report as it happens.
        var trace = false
        /// The quiet time before each plug and unplug of scenarios 1 and 2.
        var gap = Duration.milliseconds(20)
        /// Keeps only the switchers whose name starts with this.
        var only: String?
        /// Whether to run the floor comparison (``FloorComparison``) instead.
        var floor = false
    }

    /// Runs every scenario on every server asked for, then prints the summary table.
    static func main() async throws {
        guard let options = parse(CommandLine.arguments.dropFirst()) else {
            report("usage: route-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--stream-rounds N] "
                   + "[--streams N ...] [--no-streams] [--no-idle] [--idle-seconds N] [--gap-ms N] [--only NAME] [--trace] [--floor]")
            exit(64)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("route-benchmarks-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if options.floor {
            try await floor(options, directory: directory)
            return
        }
        var player: String?
        if options.streams {
            do { player = try await StreamPlayer.build(in: directory) } catch { report("streams skipped: \(error)") }
        }

        let started = ContinuousClock.now
        var results = Results()
        for kind in options.kinds {
            try await SandboxServer.withServer(kind) { server in
                try await benchmark(server, options: options, player: player, results: &results)
            }
        }
        report("")
        report("## Summary (p50 / p90 / p99 / max; ratio = switcher ÷ RouteKit daemon at p50, at p99 in brackets)")
        for line in results.table(switchers: ["RouteKit daemon", "RouteKit in-process", "module-switch-on-connect",
                                              "pactl subscribe script"],
                                  baseline: "RouteKit daemon") {
            report(line)
        }
        report("")
        report("whole run: \(format((ContinuousClock.now - started).milliseconds / 1000)) s")
    }

    /// The floor comparison on every server asked for, then its table of ratios.
    static func floor(_ options: Options, directory: String) async throws {
        var rows: [String] = []
        for kind in options.kinds {
            try await SandboxServer.withServer(kind) { server in
                rows += try await FloorComparison.run(server, options: options, directory: directory)
            }
        }
        report("")
        report("## Against the floor (from the sink's event to the default's change, or to every stream moved; "
               + "✗: above \(format(FloorComparison.limits.p50))× at p50 or \(format(FloorComparison.limits.p99))× at p99)")
        for line in FloorComparison.header + rows { report(line) }
    }

    /// Reads the command line; nil when it cannot be read.
    static func parse(_ arguments: ArraySlice<String>) -> Options? {
        var options = Options()
        var arguments = arguments
        while let argument = arguments.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.rounds = value
            case "--stream-rounds":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.streamRounds = value
            case "--streams":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.streamCounts.append(value)
            case "--no-streams":
                options.streams = false
            case "--no-idle":
                options.idle = false
            case "--idle-seconds":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.idleSeconds = value
            case "--gap-ms":
                guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else { return nil }
                options.gap = .milliseconds(value)
            case "--trace":
                options.trace = true
            case "--floor":
                options.floor = true
            case "--only":
                guard let name = arguments.popFirst() else { return nil }
                options.only = name
            default:
                guard let kind = SoundServerKind(rawValue: argument) else { return nil }
                options.kinds.append(kind)
            }
        }
        if options.kinds.isEmpty { options.kinds = SoundServerKind.allCases }
        return options
    }

    /// Every scenario on one server.
    static func benchmark(_ server: SandboxServer, options: Options, player: String?, results: inout Results) async throws {
        let bench = try await Bench(server: server, tracing: options.trace)
        defer { bench.shutdown() }
        let version = try await bench.observer.serverInfo()
        report("## \(server.kind): \(version.serverName) \(version.serverVersion)")
        try await describeDevices(bench)
        let choice = try await Rounds.serverOwnChoice(bench)
        report("with no switcher, once the headset goes the server itself picks: \(choice ?? "no sink")"
               + (choice == Bench.speaker ? " (the fallback: scenario 2 proves nothing here)" : " (not the fallback)"))
        report("observer round trip at rest (server info): \(try await Rounds.observerRoundTrip(bench))")
        report("observer's lookup of a new headset asked at its event, no switcher running (the floor for any "
               + "switcher outside the server): \(try await Rounds.lookupAtPlug(bench, gap: options.gap))")
        report("the driver's own set-default-sink → the observer reads it, no switcher running (the server's part "
               + "of any switch): \(try await Rounds.setDefaultAtRest(bench, gap: options.gap))")

        if !DaemonSwitcher.isBuilt {
            report("RouteKit daemon skipped: \(DaemonSwitcher.executable) is not built (swift build -c release --product routectl)")
        }
        let daemon: [any Switcher] = DaemonSwitcher.isBuilt ? [DaemonSwitcher()] : []
        let switchers: [any Switcher] = (daemon + [RouteKitSwitcher(), ModuleSwitcher(), ScriptSwitcher()]).filter { switcher in
            options.only.map { switcher.name.lowercased().hasPrefix($0.lowercased()) } ?? true
        }
        var unsupported: [String: String] = [:]
        var restarts: [String: Int] = [:]
        var serverChoices = 0
        let chunks = 4
        try await Rounds.alternate(switchers, rounds: options.rounds, chunks: chunks, bench: bench, patience: Rounds.timeLimit,
                                   unsupported: &unsupported, restarts: &restarts) { switcher, count in
            try await Rounds.switchRounds(switcher, count: count, bench: bench, gap: options.gap, results: &results,
                                          serverChoices: &serverChoices)
        }
        for switcher in switchers {
            if let reason = unsupported[switcher.name] {
                for scenario in [Scenario.appear, .fallback] {
                    results[Results.Key(server: server.kind, scenario: scenario, switcher: switcher.name)].unsupported = reason
                }
            }
            for scenario in [Scenario.appear, .fallback, .plugRequest, .unplugRequest] {
                let key = Results.Key(server: server.kind, scenario: scenario, switcher: switcher.name)
                guard let measurement = results.measurement(key) else { continue }
                report("\(scenario), \(switcher.name): \(measurement.cell)\(measurement.answerCell)")
            }
        }
        if let routeKit = switchers.first(where: { $0 is RouteKitSwitcher }) as? RouteKitSwitcher {
            reportTimings(routeKit.collectedTimings)
            reportTimelines(routeKit.timelines)
        }
        report("module-switch-on-connect rounds: the server itself chose \(Bench.external) \(serverChoices) times after the unplug")
        reportRestarts(restarts)

        if let player {
            let cap = StreamPlayer.largestCount(on: server.kind)
            var counts = options.streamCounts.isEmpty ? StreamPlayer.defaultCounts(on: server.kind) : options.streamCounts
            if counts.contains(where: { $0 > cap }) {
                report("streams: a \(server.kind) sink takes at most \(cap) here; larger counts are measured at \(cap)")
                counts = counts.map { min($0, cap) }
            }
            for count in Set(counts).sorted() {
                do {
                    try await benchmarkStreams(count, bench: bench, player: player, switchers: switchers,
                                               rounds: options.streamRounds, unsupported: unsupported, results: &results)
                } catch {
                    report("\(count) streams: stopped: \(error)")
                    do {
                        try await bench.settleOnSpeaker()
                        try await bench.fence()
                    } catch {
                        report("the server did not recover (\(error)); no more stream counts on it")
                        break
                    }
                }
            }
        }
        if !bench.switchFailures.isEmpty {
            report("RouteKit reported \(bench.switchFailures.count) failed switches; first: \(bench.switchFailures[0])")
        }
        let logged = bench.logCounts.drain()
        for (message, count) in logged.prefix(10) {
            report("logged \(count)×: \(message)")
        }
        if logged.count > 10 { report("logged \(logged.count - 10) more different messages") }
        if options.idle, (try? await bench.settleOnSpeaker()) != nil {
            let idle = try await Rounds.idleCost(bench)
            report("idle for 5 s, whole process: without RouteKit \(idle.without.text); with RouteKit running \(idle.with.text)")
            for line in try await IdleWakeups.measure(bench, seconds: options.idleSeconds) { report(line) }
        }
        report("")
    }

    /// Scenario 3 with `count` playing streams: the player started, measured, and stopped
    /// (and waited for) also when the measurement fails.
    static func benchmarkStreams(_ count: Int, bench: Bench, player: String, switchers: [any Switcher], rounds: Int,
                                 unsupported: [String: String], results: inout Results) async throws {
        bench.clearPlayerLines()
        let streams = try await StreamPlayer(binary: player, bench: bench, sink: Bench.speaker, count: count)
        do {
            try await measureStreams(count, bench: bench, switchers: switchers, rounds: rounds,
                                     unsupported: unsupported, results: &results)
        } catch {
            await streams.stop()
            throw error
        }
        await streams.stop()
    }

    /// Scenario 3 while the player plays `count` streams.
    private static func measureStreams(_ count: Int, bench: Bench, switchers: [any Switcher], rounds: Int,
                                       unsupported: [String: String], results: inout Results) async throws {
        let started = ContinuousClock.now
        let line = await bench.awaitPlayerLine(within: .seconds(120)) { $0.hasPrefix("ready") || $0.hasPrefix("stream-player:") }
        guard let line, line.hasPrefix("ready") else {
            report("\(count) streams could not be started: \(line ?? "no answer in 120 s")")
            return
        }
        _ = try await bench.gatherStreams(count, on: Bench.speaker)
        try await bench.fence()
        report("\(count) streams playing (started in \(format((ContinuousClock.now - started).milliseconds)) ms); "
               + "listing them: \(try await Rounds.listingTime(bench))")
        var strays = 0
        var dropped = unsupported
        var restarts: [String: Int] = [:]
        try await Rounds.alternate(switchers, rounds: rounds, chunks: 1, bench: bench, patience: Rounds.streamTimeLimit,
                                   warmUpAll: false, known: Set(switchers.map(\.name)).subtracting(unsupported.keys),
                                   unsupported: &dropped, restarts: &restarts) { switcher, share in
            try await Rounds.streamRounds(switcher, streams: count, count: share, bench: bench, results: &results, strays: &strays)
        }
        for switcher in switchers {
            let key = Results.Key(server: bench.kind, scenario: .streams(count), switcher: switcher.name)
            if let reason = dropped[switcher.name] { results[key].unsupported = reason }
            report("\(Scenario.streams(count)), \(switcher.name): \(results[key].cell)\(results[key].answerCell)")
        }
        if strays > 0 { report("  streams the switchers left behind, moved by the driver: \(strays)") }
        reportRestarts(restarts)
    }

    /// Where RouteKit's own time went in its event-driven switches, step by step (p50 / p99).
    static func reportTimings(_ timings: [SwitchTiming]) {
        guard !timings.isEmpty else { return }
        func line(_ name: String, _ step: (SwitchTiming) -> Duration) -> String {
            let summary = LatencySummary(timings.map(step))
            return "\(name) \(format(summary.p50 * 1000)) / \(format(summary.p99 * 1000)) µs"
        }
        report("RouteKit's own steps over \(timings.count) event-driven switches (p50 / p99): "
               + [line("queue hop (libpulse callback → loop awake)", \.queueHop),
                  line("lookups", \.lookups), line("decision", \.decision),
                  line("route request answered", \.request), line("total", \.total)].joined(separator: "; "))
    }

    /// Where an in-process switch's time goes against the driver's answer, at the median of
    /// each instant: when the event reached RouteKit, its lookups were answered, the machine
    /// decided, the server answered the route request, and the observer read the new default.
    static func reportTimelines(_ timelines: [Scenario: [[Duration]]]) {
        let names = ["event received", "lookups answered", "decided", "request answered", "observer read it"]
        for (scenario, rows) in timelines.sorted(by: { "\($0.key)" < "\($1.key)" }) where !rows.isEmpty {
            let medians = names.indices.map { column in LatencySummary(rows.map { $0[column] }).p50 }
            report("\(scenario), RouteKit in-process, median instants from the driver's answer (n=\(rows.count)): "
                   + zip(names, medians).map { "\($0) \(format($1 * 1000)) µs" }.joined(separator: ", "))
        }
    }

    /// Says which switchers got stuck and were restarted.
    static func reportRestarts(_ restarts: [String: Int]) {
        for (name, count) in restarts.sorted(by: { $0.key < $1.key }) {
            report("  \(name) got stuck (\(Rounds.stuckAfter) timeouts in a row, or no switch in a warm-up) "
                   + "and was restarted \(count) time\(count == 1 ? "" : "s")")
        }
    }

    /// Prints the kind RouteKit gives each sink of the setup.
    static func describeDevices(_ bench: Bench) async throws {
        let switcher = RouteKitSwitcher()
        try await switcher.start(bench)
        let devices = await switcher.devices()
        await switcher.stop(bench)
        try await bench.settleOnSpeaker()
        try await bench.fence()
        report("devices as RouteKit sees them: "
               + devices.map { "\($0.output?.deviceName ?? $0.id.rawValue)=\($0.kind)" }.joined(separator: ", "))
    }
}
