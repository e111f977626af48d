import BenchmarkSupport
import Foundation
import PulseAudio
import SoundServerSandbox

/// RouteKit against the floor (`route-benchmarks --floor`): the floor client, `routectl daemon
/// --prefer bluetooth --prefer speakerphone` and the manager inside this process, taking turns
/// on one server in one run, all timed by the same outside observer (Docs/Benchmarks.md,
/// "Against the floor"). The speakerphone, not the earpiece, comes after Bluetooth: the
/// fallback is the bench's built-in speaker, where the floor client falls back too (with no
/// earpiece present, RouteKit would rightly leave the server's own choice).
enum FloorComparison {
    /// The floor client's name in the results: every ratio is to it.
    static let floor = "floor client"
    /// RouteKit's two forms, in the table's order.
    static let routeKit = ["RouteKit daemon", "RouteKit in-process"]
    /// Above these ratios to the floor (p50, p99), RouteKit misses the engine issue's goal.
    static let limits = (p50: 1.25, p99: 1.5)

    /// Every scenario on `server`; returns the rows of the ratio table.
    static func run(_ server: SandboxServer, options: RouteBenchmarks.Options, directory: String) async throws -> [String] {
        let bench = try await Bench(server: server, tracing: options.trace)
        defer { bench.shutdown() }
        let info = try await bench.observer.serverInfo()
        let label = server.kind == .pulseaudio ? "PulseAudio \(info.serverVersion)" : info.serverName
        report("## \(label), against the floor")
        guard DaemonSwitcher.isBuilt else {
            throw BenchError("\(DaemonSwitcher.executable) is not built (swift build -c release --product routectl)")
        }
        let observerBinary = try await CHelper.binary("default-observer", in: directory)
        let switchers: [any Switcher] = [
            FloorSwitcher(binary: try await CHelper.binary("floor-switcher", in: directory)),
            DaemonSwitcher(),
            RouteKitSwitcher(),
        ]
        var results = Results()
        var unsupported: [String: String] = [:]
        var restarts: [String: Int] = [:]
        let observer = try await OutsideObserver(binary: observerBinary, bench: bench, streams: 0)
        try await Rounds.alternate(switchers, rounds: options.rounds, chunks: 2, bench: bench, patience: Rounds.timeLimit,
                                   unsupported: &unsupported, restarts: &restarts) { switcher, count in
            try await FloorRounds.switchRounds(switcher, count: count, bench: bench, gap: options.gap, results: &results)
        }
        await observer.stop()
        if let routeKit = switchers.compactMap({ $0 as? RouteKitSwitcher }).first {
            // Where the in-process engine's time went, beside the observer's figures.
            RouteBenchmarks.reportTimings(routeKit.collectedTimings)
        }
        RouteBenchmarks.reportRestarts(restarts)
        for (name, reason) in unsupported { report("\(name): \(reason)") }

        if options.streams {
            let player = try await StreamPlayer.build(in: directory)
            let cap = StreamPlayer.largestCount(on: server.kind)
            let counts = options.streamCounts.isEmpty ? StreamPlayer.defaultCounts(on: server.kind) : options.streamCounts
            for count in Set(counts.map { min($0, cap) }).sorted() {
                try await streams(count, bench: bench, player: player, observerBinary: observerBinary, switchers: switchers,
                                  rounds: options.streamRounds, results: &results)
            }
        }
        for key in results.order {
            report("\(key.scenario), \(key.switcher): \(results[key].cell)")
        }
        return rows(label, kind: server.kind, results: results)
    }

    /// Scenario 3 with `count` streams playing: the player and an observer expecting them
    /// started, the switchers alternated in two turns, both stopped also when it fails.
    private static func streams(_ count: Int, bench: Bench, player: String, observerBinary: String,
                                switchers: [any Switcher], rounds: Int, results: inout Results) async throws {
        bench.clearPlayerLines()
        let streams = try await StreamPlayer(binary: player, bench: bench, sink: Bench.speaker, count: count)
        var observer: OutsideObserver?
        do {
            let line = await bench.awaitPlayerLine(within: .seconds(120)) { $0.hasPrefix("ready") || $0.hasPrefix("stream-player:") }
            guard let line, line.hasPrefix("ready") else { throw BenchError("\(count) streams: \(line ?? "no answer in 120 s")") }
            _ = try await bench.gatherStreams(count, on: Bench.speaker)
            observer = try await OutsideObserver(binary: observerBinary, bench: bench, streams: count)
            try await bench.fence()
            var unsupported: [String: String] = [:]
            var restarts: [String: Int] = [:]
            try await Rounds.alternate(switchers, rounds: rounds, chunks: 2, bench: bench, patience: Rounds.streamTimeLimit,
                                       warmUpAll: false, known: Set(switchers.map(\.name)),
                                       unsupported: &unsupported, restarts: &restarts) { switcher, share in
                try await FloorRounds.streamRounds(switcher, streams: count, count: share, bench: bench, results: &results)
            }
            RouteBenchmarks.reportRestarts(restarts)
        } catch {
            report("\(count) streams: stopped: \(error)")
        }
        await observer?.stop()
        await streams.stop()
        try await bench.settleOnSpeaker()
        try await bench.fence()
    }

    /// The table's header.
    static let header = [
        "| server | scenario | floor client p50 / p99 | RouteKit daemon p50 / p99 | ÷ floor (p50 / p99) "
            + "| RouteKit in-process p50 / p99 | ÷ floor (p50 / p99) |",
        "|---|---|---|---|---|---|---|",
    ]

    /// One row a scenario: each figure, and RouteKit's ratios to the floor, marked ✗ where
    /// they exceed ``limits``.
    static func rows(_ label: String, kind: SoundServerKind, results: Results) -> [String] {
        results.scenarios(on: kind).map { scenario in
            let floor = results[Results.Key(server: kind, scenario: scenario, switcher: floor)]
            var cells = [label, "\(scenario)", cell(floor)]
            for name in routeKit {
                let ours = results[Results.Key(server: kind, scenario: scenario, switcher: name)]
                cells.append(cell(ours))
                guard !ours.samples.isEmpty, !floor.samples.isEmpty else {
                    cells.append("—")
                    continue
                }
                let (a, b) = (ours.summary, floor.summary)
                let over = a.p50 / b.p50 > limits.p50 || a.p99 / b.p99 > limits.p99
                cells.append("\(format(a.p50 / b.p50))× / \(format(a.p99 / b.p99))×\(over ? " ✗" : "")")
            }
            return "| " + cells.joined(separator: " | ") + " |"
        }
    }

    /// `p50 / p99 ms (n)`, with the rounds that timed out.
    private static func cell(_ measurement: Measurement) -> String {
        guard !measurement.samples.isEmpty else { return "none (\(measurement.timeouts) timed out)" }
        let s = measurement.summary
        let late = measurement.timeouts > 0 ? ", \(measurement.timeouts) timed out" : ""
        return "\(format(s.p50)) / \(format(s.p99)) ms (n=\(s.count)\(late))"
    }
}
