import BenchmarkSupport
import Foundation
import PulseAudio

/// The rounds of every scenario, for one switcher at a time on one bench.
///
/// A round starts with the speaker as the configured default and no headset. Each step
/// that is not timed ends with a fence, so that no event of one step is taken for the next.
enum Rounds {
    /// How long a switch may take before the round counts it as not done.
    static let timeLimit = Duration.seconds(3)
    /// How long moving every stream may take.
    static let streamTimeLimit = Duration.seconds(20)

    /// How many rounds in a row may time out before the switcher counts as stuck and is
    /// restarted.
    static let stuckAfter = 3

    /// Runs `rounds` rounds of `body` for each switcher, in `chunks` turns so that all of
    /// them meet the machine's changing load, each turn starting with a warm-up round (with
    /// `warmUpAll` false, only the script's turns do after the first: the others are ready
    /// once started).
    ///
    /// `body` returns how many rounds it ran; fewer than asked means the switcher got stuck
    /// (``stuckAfter`` timeouts in a row): it is stopped and started again (counted in
    /// `restarts`) for the rest, twice at most in a turn; so is one whose warm-up fails after
    /// it has worked before (or `known` says it has). A switcher whose very first warm-up
    /// fails never switches at all: it is dropped, with the reason recorded in `unsupported`.
    static func alternate(_ switchers: [any Switcher], rounds: Int, chunks: Int, bench: Bench, patience: Duration,
                          warmUpAll: Bool = true, known: Set<String> = [],
                          unsupported: inout [String: String], restarts: inout [String: Int],
                          _ body: (any Switcher, Int) async throws -> Int) async throws {
        let chunks = max(1, min(chunks, rounds))
        var worked = known
        for chunk in 0..<chunks {
            let share = rounds / chunks + (chunk < rounds % chunks ? 1 : 0)
            for offset in switchers.indices {
                let switcher = switchers[(chunk + offset) % switchers.count]
                var remaining = share
                var starts = 0
                while remaining > 0, starts < 3, unsupported[switcher.name] == nil {
                    starts += 1
                    try await switcher.start(bench)
                    var ready = !warmUpAll && !(switcher is ScriptSwitcher) && worked.contains(switcher.name)
                    if !ready { ready = try await warmUp(switcher, bench, patience: patience) }
                    if ready {
                        worked.insert(switcher.name)
                        remaining -= try await body(switcher, remaining)
                    } else if !worked.contains(switcher.name) {
                        unsupported[switcher.name] = "never made a new headset the default"
                    }
                    await switcher.stop(bench)
                    try await bench.settleOnSpeaker()
                    try await bench.fence()
                    if remaining > 0, unsupported[switcher.name] == nil { restarts[switcher.name, default: 0] += 1 }
                }
            }
        }
    }

    /// Plugs and unplugs a headset until the switcher makes it the default (within
    /// `patience`), at most three times; returns false if it never does.
    static func warmUp(_ switcher: any Switcher, _ bench: Bench, patience: Duration) async throws -> Bool {
        for _ in 0..<3 {
            bench.clearReports()
            let name = bench.nextHeadsetName()
            let (module, _) = try await bench.plugHeadset(name)
            let switched = try await bench.awaitDefaultSink(name, within: patience) != nil
            if switched, switcher.reportsSwitches { _ = await bench.awaitReport(name, within: patience) }
            try await bench.fence()
            bench.clearReports()
            _ = try await bench.unplug(module)
            try await fallBack(switcher, bench, headsetWasDefault: switched, patience: patience)
            try await bench.fence()
            if switched { return true }
        }
        return false
    }

    /// After an unplug: waits for the switcher's fallback, returning the instant the observer
    /// read it; for a switcher without one, puts the speaker back through the driver and
    /// returns nil. `serverChoice` receives the server's own choice when it is seen.
    @discardableResult
    static func fallBack(_ switcher: any Switcher, _ bench: Bench, headsetWasDefault: Bool, patience: Duration = timeLimit,
                         serverChoice: ((String) -> Void)? = nil) async throws -> ContinuousClock.Instant? {
        guard headsetWasDefault else {
            try await bench.settleOnSpeaker()
            return nil
        }
        if switcher.fallsBack {
            if let seen = try await bench.awaitDefaultSink(Bench.speaker, within: patience) {
                if switcher.reportsSwitches { _ = await bench.awaitReport(Bench.speaker, within: patience) }
                return seen
            }
        } else if try await bench.awaitDefaultSink(Bench.external, within: .seconds(2)) != nil {
            serverChoice?(Bench.external)
        }
        try await bench.settleOnSpeaker()
        return nil
    }

    /// Scenarios 1 and 2: plug a headset (timed until the observer reads it as the default),
    /// then unplug it (timed until the observer reads the speaker as the default, for the
    /// switchers that fall back); each after `gap` of quiet.
    static func switchRounds(_ switcher: any Switcher, count: Int, bench: Bench, gap: Duration, results: inout Results,
                             serverChoices: inout Int) async throws -> Int {
        let appearKey = Results.Key(server: bench.kind, scenario: .appear, switcher: switcher.name)
        let fallbackKey = Results.Key(server: bench.kind, scenario: .fallback, switcher: switcher.name)
        let plugKey = Results.Key(server: bench.kind, scenario: .plugRequest, switcher: switcher.name)
        let unplugKey = Results.Key(server: bench.kind, scenario: .unplugRequest, switcher: switcher.name)
        if !switcher.fallsBack {
            results[fallbackKey].unsupported = "it only switches to new devices"
        }
        var timeoutsInARow = 0
        for round in 0..<count {
            bench.clearReports()
            let name = bench.nextHeadsetName()
            try await quiet(gap)
            let (module, plugged) = try await bench.plugHeadset(name)
            results[plugKey].samples.append(plugged.answered - plugged.issued)
            let seen = try await bench.awaitDefaultSink(name, within: timeLimit)
            if let seen {
                results[appearKey].samples.append(seen - plugged.issued)
                results[appearKey].fromAnswer.append(seen - plugged.answered)
            } else {
                results[appearKey].timeouts += 1
            }
            var timedOut = seen == nil
            if seen != nil, switcher.reportsSwitches { _ = await bench.awaitReport(name, within: timeLimit) }
            if let seen, let routeKit = switcher as? RouteKitSwitcher {
                routeKit.noteTimeline(.appear, issued: plugged.issued, answered: plugged.answered, seen: seen)
            }
            try await bench.fence()

            bench.clearReports()
            try await quiet(gap)
            let unplugged = try await bench.unplug(module)
            results[unplugKey].samples.append(unplugged.answered - unplugged.issued)
            var choices = 0
            let back = try await fallBack(switcher, bench, headsetWasDefault: seen != nil) { _ in choices += 1 }
            serverChoices += choices
            if switcher.fallsBack, seen != nil {
                if let back {
                    (switcher as? RouteKitSwitcher)?.noteTimeline(.fallback, issued: unplugged.issued,
                                                                   answered: unplugged.answered, seen: back)
                    results[fallbackKey].samples.append(back - unplugged.issued)
                    results[fallbackKey].fromAnswer.append(back - unplugged.answered)
                } else {
                    results[fallbackKey].timeouts += 1
                }
                timedOut = timedOut || back == nil
            }
            try await bench.fence()
            timeoutsInARow = timedOut ? timeoutsInARow + 1 : 0
            if timeoutsInARow >= stuckAfter { return round + 1 }
        }
        return count
    }

    /// Lets `gap` pass with nothing happening, as between a user's plugs.
    static func quiet(_ gap: Duration) async throws {
        if gap > .zero { try await Task.sleep(for: gap) }
    }

    /// Scenario 3: with `streams` streams playing on the speaker, plug a headset (timed until
    /// the observer lists every stream on it), then unplug it and gather the streams back on
    /// the speaker (untimed; streams a switcher left behind are moved by the driver and
    /// counted in `strays`).
    static func streamRounds(_ switcher: any Switcher, streams: Int, count: Int, bench: Bench,
                             results: inout Results, strays: inout Int) async throws -> Int {
        let key = Results.Key(server: bench.kind, scenario: .streams(streams), switcher: switcher.name)
        var timeoutsInARow = 0
        for round in 0..<count {
            bench.clearReports()
            let name = bench.nextHeadsetName()
            let (module, plugged) = try await bench.plugHeadset(name)
            let seen = try await bench.awaitStreams(streams, onSink: name, within: streamTimeLimit)
            if let seen {
                results[key].samples.append(seen - plugged.issued)
                results[key].fromAnswer.append(seen - plugged.answered)
            } else {
                results[key].timeouts += 1
            }
            if switcher.reportsSwitches { _ = await bench.awaitReport(name, within: streamTimeLimit) }
            try await bench.fence()

            bench.clearReports()
            _ = try await bench.unplug(module)
            try await fallBack(switcher, bench, headsetWasDefault: true, patience: streamTimeLimit)
            strays += try await bench.gatherStreams(streams, on: Bench.speaker)
            try await bench.fence()
            timeoutsInARow = seen == nil ? timeoutsInARow + 1 : 0
            if timeoutsInARow >= stuckAfter { return round + 1 }
        }
        return count
    }

    /// Checks by experiment that the server alone does not pick the fallback: with no
    /// switcher running, the driver makes a headset the default and unplugs it; returns the
    /// sink the server chose then.
    static func serverOwnChoice(_ bench: Bench) async throws -> String? {
        let name = bench.nextHeadsetName()
        let (module, _) = try await bench.plugHeadset(name)
        try await bench.driver.setDefaultSink(name)
        _ = try await bench.awaitDefaultSink(name, within: timeLimit)
        try await bench.fence()
        _ = try await bench.unplug(module)
        // The server may pass through more than one default; what it shows after a second counts.
        try await Task.sleep(for: .seconds(1))
        let choice = try await bench.observer.serverInfo().defaultSinkName
        try await bench.settleOnSpeaker()
        try await bench.fence()
        return choice
    }

    /// The observer's own round trip at rest (one server-info request): the floor under
    /// every figure, since each ends with one.
    static func observerRoundTrip(_ bench: Bench, count: Int = 200) async throws -> LatencySummary {
        var samples: [Duration] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            _ = try await bench.observer.serverInfo()
            samples.append(.now - start)
        }
        return LatencySummary(samples)
    }

    /// The floor under any switcher outside the server: with none running, the observer
    /// looks up each new headset the moment its `new` event arrives, as a switcher must before
    /// it can choose it, and this times that lookup. The server answers late while it
    /// finishes the plug, so this is more than the round trip at rest.
    static func lookupAtPlug(_ bench: Bench, gap: Duration, count: Int = 60) async throws -> LatencySummary {
        try await withHeadsetPlugged(bench, count: count, gap: gap) { name in
            let deadline = ContinuousClock.now + timeLimit
            while let signal = await bench.signals.next(before: deadline) {
                guard case .server(.subscription(let event)) = signal, event.facility == .sink, event.kind == .new else { continue }
                let start = ContinuousClock.now
                if try await bench.observer.sink(at: event.index)?.name == name { return .now - start }
            }
            return nil
        }
    }

    /// The other floor: with no switcher running, the driver itself makes a plugged headset
    /// the default, as a switcher's request would, and this times it until the observer reads
    /// it. On PipeWire this is WirePlumber's reaction to a configured default.
    static func setDefaultAtRest(_ bench: Bench, gap: Duration, count: Int = 60) async throws -> LatencySummary {
        try await withHeadsetPlugged(bench, count: count, gap: .zero) { name in
            try await bench.fence()
            try await quiet(gap)
            let start = ContinuousClock.now
            try await bench.driver.setDefaultSink(name)
            return try await bench.awaitDefaultSink(name, within: timeLimit).map { $0 - start }
        }
    }

    /// `count` times: plugs a new headset after `gap` of quiet, times `body` on it (nil: no
    /// sample), then unplugs it and puts the speaker back, fenced on both sides.
    private static func withHeadsetPlugged(_ bench: Bench, count: Int, gap: Duration,
                                           _ body: (String) async throws -> Duration?) async throws -> LatencySummary {
        var samples: [Duration] = []
        for _ in 0..<count {
            let name = bench.nextHeadsetName()
            try await quiet(gap)
            let (module, _) = try await bench.plugHeadset(name)
            if let sample = try await body(name) { samples.append(sample) }
            try await bench.fence()
            _ = try await bench.unplug(module)
            try await bench.settleOnSpeaker()
            try await bench.fence()
        }
        return LatencySummary(samples)
    }

    /// What listing `count` streams costs the observer at rest (once per stream round).
    static func listingTime(_ bench: Bench, count: Int = 20) async throws -> LatencySummary {
        var samples: [Duration] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            _ = try await bench.observer.sinkInputs()
            samples.append(.now - start)
        }
        return LatencySummary(samples)
    }

    /// The cost of doing nothing for five seconds, without and then with a running RouteKit
    /// manager: the CPU time and context switches of this whole process (the driver's and
    /// the observer's connections are idle too), and the events the observer received.
    static func idleCost(_ bench: Bench) async throws -> (without: IdleCost, with: IdleCost) {
        let without = try await idle(bench)
        let switcher = RouteKitSwitcher()
        try await switcher.start(bench)
        try await bench.fence()
        let with = try await idle(bench)
        await switcher.stop(bench)
        try await bench.settleOnSpeaker()
        try await bench.fence()
        return (without, with)
    }

    /// Five seconds of nothing, after a fence and two seconds of settling.
    private static func idle(_ bench: Bench) async throws -> IdleCost {
        try await bench.fence()
        try await Task.sleep(for: .seconds(2))
        while bench.signals.poll() != nil {}
        let before = ResourceUsage.now()
        try await Task.sleep(for: .seconds(5))
        let after = ResourceUsage.now()
        var events = 0
        while bench.signals.poll() != nil { events += 1 }
        return IdleCost(cpu: after.cpu - before.cpu, contextSwitches: after.contextSwitches - before.contextSwitches,
                        events: events)
    }
}

/// What five idle seconds cost.
struct IdleCost {
    /// CPU time of the whole process.
    var cpu: Duration
    /// Context switches of the whole process.
    var contextSwitches: Int
    /// Signals received (server events, manager events).
    var events: Int

    /// `X ms CPU, N context switches, E events`.
    var text: String {
        "\(format(cpu.milliseconds)) ms CPU, \(contextSwitches) context switches, \(events) events"
    }
}

/// This process's CPU time and context switches so far (`getrusage`).
struct ResourceUsage {
    /// User plus system time.
    var cpu: Duration
    /// Voluntary and involuntary context switches: roughly, wake-ups.
    var contextSwitches: Int

    /// The figures now.
    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        /// A `timeval` as a duration.
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return ResourceUsage(cpu: duration(usage.ru_utime) + duration(usage.ru_stime),
                             contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw)
    }
}
