import BenchmarkSupport
import Foundation

/// The rounds of the floor comparison, for one switcher at a time: each figure is the outside
/// observer's, from the sink's `new` (or `remove`) event to the server's answer naming the new
/// default (or to the first listing with every stream on the new sink), both on its clock.
///
/// A round starts with the speaker as the configured default and no headset; each step ends
/// with a fence, as in ``Rounds``.
enum FloorRounds {
    /// Scenarios 1 and 2, timed by the outside observer; returns how many rounds ran (fewer
    /// than `count` when the switcher got stuck, as ``Rounds/switchRounds`` does).
    static func switchRounds(_ switcher: any Switcher, count: Int, bench: Bench, gap: Duration,
                             results: inout Results) async throws -> Int {
        let appearKey = Results.Key(server: bench.kind, scenario: .appear, switcher: switcher.name)
        let fallbackKey = Results.Key(server: bench.kind, scenario: .fallback, switcher: switcher.name)
        var timeoutsInARow = 0
        for round in 0..<count {
            bench.clearReports()
            let name = bench.nextHeadsetName()
            try await Rounds.quiet(gap)
            let (module, _) = try await bench.plugHeadset(name)
            let appeared = await awaitSwitch(bench, to: name) { line in
                if case .new(let index, let at) = line { return (index, at) }
                return nil
            }
            if let appeared {
                results[appearKey].samples.append(appeared.latency)
                _ = await bench.awaitReport(name, within: Rounds.timeLimit)
            } else {
                results[appearKey].timeouts += 1
            }
            try await bench.fence()

            bench.clearReports()
            try await Rounds.quiet(gap)
            _ = try await bench.unplug(module)
            var fellBack: (index: UInt32, latency: Duration)?
            if let appeared {
                fellBack = await awaitSwitch(bench, to: Bench.speaker) { line in
                    if case .remove(let index, let at) = line, index == appeared.index { return (index, at) }
                    return nil
                }
                if let fellBack {
                    results[fallbackKey].samples.append(fellBack.latency)
                    _ = await bench.awaitReport(Bench.speaker, within: Rounds.timeLimit)
                } else {
                    results[fallbackKey].timeouts += 1
                }
            }
            if fellBack == nil { try await bench.settleOnSpeaker() }
            try await bench.fence()
            timeoutsInARow = appeared == nil || fellBack == nil ? timeoutsInARow + 1 : 0
            if timeoutsInARow >= Rounds.stuckAfter { return round + 1 }
        }
        return count
    }

    /// Scenario 3 with `streams` streams playing on the speaker (the observer started to
    /// expect them): plug a headset, timed from its `new` event until the observer lists every
    /// stream on it; then unplug it and gather the streams back on the speaker (untimed).
    static func streamRounds(_ switcher: any Switcher, streams: Int, count: Int, bench: Bench,
                             results: inout Results) async throws -> Int {
        let key = Results.Key(server: bench.kind, scenario: .streams(streams), switcher: switcher.name)
        var timeoutsInARow = 0
        for round in 0..<count {
            bench.clearReports()
            let name = bench.nextHeadsetName()
            let (module, _) = try await bench.plugHeadset(name)
            var appeared: Duration?
            let moved = await awaitOutside(bench, within: Rounds.streamTimeLimit) { line in
                if case .new(_, let at) = line { appeared = at }
                if case .streams(_, let at) = line, let appeared { return at - appeared }
                return nil
            }
            if let moved { results[key].samples.append(moved) } else { results[key].timeouts += 1 }
            _ = await bench.awaitReport(name, within: Rounds.streamTimeLimit)
            try await bench.fence()

            bench.clearReports()
            _ = try await bench.unplug(module)
            try await Rounds.fallBack(switcher, bench, headsetWasDefault: true, patience: Rounds.streamTimeLimit)
            _ = try await bench.gatherStreams(streams, on: Bench.speaker)
            try await bench.fence()
            timeoutsInARow = moved == nil ? timeoutsInARow + 1 : 0
            if timeoutsInARow >= Rounds.stuckAfter { return round + 1 }
        }
        return count
    }

    /// Waits for the trigger `start` picks out of the observer's lines (a sink's index and
    /// instant), then for the default to become `sink`; returns the trigger's index and the
    /// time between the two, or nil after ``Rounds/timeLimit``.
    private static func awaitSwitch(_ bench: Bench, to sink: String,
                                    start: (ObserverLine) -> (UInt32, Duration)?) async -> (index: UInt32, latency: Duration)? {
        var trigger: (index: UInt32, at: Duration)?
        return await awaitOutside(bench, within: Rounds.timeLimit) { line in
            if let started = start(line) { trigger = started }
            if case .defaultSink(sink, let at) = line, let trigger { return (trigger.index, at - trigger.at) }
            return nil
        }
    }

    /// Consumes signals (noting each) until `found` returns a value for one of the outside
    /// observer's lines; nil after `timeout`.
    private static func awaitOutside<Found>(_ bench: Bench, within timeout: Duration,
                                            _ found: (ObserverLine) -> Found?) async -> Found? {
        let deadline = ContinuousClock.now + timeout
        while let signal = await bench.signals.next(before: deadline) {
            bench.note(signal)
            if case .outside(let line) = signal, let value = found(line) { return value }
        }
        return nil
    }
}
