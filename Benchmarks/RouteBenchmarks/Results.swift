import BenchmarkSupport
import SoundServerSandbox

/// What is measured.
enum Scenario: Hashable, CustomStringConvertible {
    /// A headset appears; the clock stops when the observer reads it as the default sink.
    case appear
    /// The headset goes; the clock stops when the observer reads the configured fallback
    /// (not the server's own choice) as the default sink.
    case fallback
    /// A headset appears while `streams` streams play on the speaker; the clock stops when
    /// the observer lists all of them on the headset.
    case streams(Int)
    /// Not a switch: the driver's plug request itself, from sending it to its answer (the
    /// server creating the sink; for the module, its switch too).
    case plugRequest
    /// Not a switch: the driver's unplug request itself.
    case unplugRequest

    /// The scenario as the report names it.
    var description: String {
        switch self {
        case .appear: "device appears → default"
        case .fallback: "preferred removed → fallback"
        case .streams(let count): "\(count) stream\(count == 1 ? "" : "s") moved"
        case .plugRequest: "(plug request → answer)"
        case .unplugRequest: "(unplug request → answer)"
        }
    }

    /// Where the scenario comes in the table.
    var rank: Int {
        switch self {
        case .appear: 0
        case .fallback: 1
        case .streams(let count): 2 + count
        case .plugRequest: 1_000_000
        case .unplugRequest: 1_000_001
        }
    }

    /// Whether this is a switch (the others are the trigger's own cost).
    var isSwitch: Bool {
        switch self {
        case .appear, .fallback, .streams: true
        case .plugRequest, .unplugRequest: false
        }
    }
}

/// One switcher's figures in one scenario on one server.
struct Measurement {
    /// One duration per completed round, from the trigger's request.
    var samples: [Duration] = []
    /// The same rounds, from the trigger's answer (the device exists, or is gone, and has
    /// been announced).
    var fromAnswer: [Duration] = []
    /// Rounds in which the switch did not happen within the time limit.
    var timeouts = 0
    /// Why there are no figures, when the switcher cannot do this at all.
    var unsupported: String?

    /// The percentiles of ``samples``.
    var summary: LatencySummary { LatencySummary(samples) }

    /// The percentiles of ``fromAnswer``, as `p50 / p99 ms` (empty when there are none).
    var answerCell: String {
        guard !fromAnswer.isEmpty else { return "" }
        let s = LatencySummary(fromAnswer)
        return "; from the answer \(format(s.p50)) / \(format(s.p99)) ms"
    }

    /// `p50 / p90 / p99 / max ms`, or why there is none.
    var cell: String {
        if let unsupported { return "not supported (\(unsupported))" }
        guard !samples.isEmpty else { return "no switch in \(timeouts) rounds" }
        let s = summary
        let late = timeouts > 0 ? ", \(timeouts) timed out" : ""
        return "\(format(s.p50)) / \(format(s.p90)) / \(format(s.p99)) / \(format(s.max)) ms (n=\(s.count)\(late))"
    }
}

/// Every figure of a run, in the order measured.
struct Results {
    /// Where a figure belongs.
    struct Key: Hashable {
        var server: SoundServerKind
        var scenario: Scenario
        var switcher: String
    }

    private(set) var order: [Key] = []
    private var entries: [Key: Measurement] = [:]

    /// The measurement at `key`, created empty on first use.
    subscript(key: Key) -> Measurement {
        get { entries[key] ?? Measurement() }
        set {
            if entries[key] == nil { order.append(key) }
            entries[key] = newValue
        }
    }

    /// The measurement at `key`, if anything was recorded there.
    func measurement(_ key: Key) -> Measurement? { entries[key] }

    /// The scenarios measured on `server`: switches first, then the triggers' own cost.
    func scenarios(on server: SoundServerKind) -> [Scenario] {
        var seen: [Scenario] = []
        for key in order where key.server == server && !seen.contains(key.scenario) { seen.append(key.scenario) }
        return seen.sorted { $0.rank < $1.rank }
    }

    /// The table of every figure, and RouteKit's ratio to each baseline, as Markdown.
    func table(switchers: [String], baseline: String) -> [String] {
        var lines = ["| server | scenario | switcher | from the request: p50 / p90 / p99 / max | from the answer: p50 / p99 | switcher ÷ RouteKit daemon p50 (p99) |",
                     "|---|---|---|---|---|---|"]
        for server in SoundServerKind.allCases {
            for scenario in scenarios(on: server) {
                let ours = measurement(Key(server: server, scenario: scenario, switcher: baseline))
                for switcher in switchers {
                    guard let measurement = measurement(Key(server: server, scenario: scenario, switcher: switcher)) else { continue }
                    var ratio = "—"
                    if switcher != baseline, scenario.isSwitch, let ours, !ours.samples.isEmpty, !measurement.samples.isEmpty,
                       measurement.unsupported == nil {
                        let a = ours.summary, b = measurement.summary
                        ratio = "\(format(b.p50 / a.p50))× (\(format(b.p99 / a.p99))×)"
                    }
                    var answer = "—"
                    if !measurement.fromAnswer.isEmpty {
                        let summary = LatencySummary(measurement.fromAnswer)
                        answer = "\(format(summary.p50)) / \(format(summary.p99)) ms"
                    }
                    lines.append("| \(server) | \(scenario) | \(switcher) | \(measurement.cell) | \(answer) | \(ratio) |")
                }
            }
        }
        return lines
    }
}
