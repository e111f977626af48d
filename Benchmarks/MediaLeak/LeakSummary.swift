import BenchmarkSupport

/// p50 / p95 / max of a set of figures (nearest rank).
struct Percentiles {
    var p50: Double
    var p95: Double
    var max: Double

    /// The percentiles of `values` (NaN when there are none).
    init(_ values: [Double]) {
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[Int((p / 100 * Double(sorted.count - 1)).rounded())]
        }
        p50 = rank(50)
        p95 = rank(95)
        self.max = sorted.last ?? .nan
    }

    /// `p50 / p95 / max` with a unit.
    func text(_ unit: String = "ms") -> String {
        "\(format(p50)) / \(format(p95)) / \(format(max)) \(unit)"
    }
}

/// What one switcher's rounds on one server add up to.
struct LeakSummary {
    let count: Int
    let leaked: Percentiles
    let details: [String]

    init(_ rounds: [LeakRound]) {
        count = rounds.count
        leaked = Percentiles(rounds.map { Double($0.leaked) })
        func durations(_ name: String, _ pick: (LeakRound) -> Duration?) -> String? {
            let values = rounds.compactMap(pick).map(\.milliseconds)
            guard !values.isEmpty else { return nil }
            return "\(name) \(Percentiles(values).text())" + (values.count < rounds.count ? " (\(values.count) of \(rounds.count) rounds)" : "")
        }
        func offsets(_ name: String, _ pick: (LeakRound) -> Int?) -> String? {
            let values = rounds.compactMap(pick).map(Double.init)
            guard !values.isEmpty else { return "\(name): no sound in any round" }
            return "\(name) \(Percentiles(values).text())" + (values.count < rounds.count ? " (\(values.count) of \(rounds.count) rounds)" : "")
        }
        details = [
            "leaked \(leaked.text()) (p50 / p95 / max) over \(count) rounds",
            "the window's peak \(Percentiles(rounds.map(\.peak)).text("dBFS"))",
            offsets("first loud window after the unplug's position in the recording", \.firstSound),
            offsets("last loud window", \.lastSound),
            durations("first loud window received after the unplug request", \.firstSoundArrival),
            durations("the unplug request answered", \.unplugAnswered),
            durations("the guard's `held` event after the unplug request", \.held),
            durations("the observer's change event showing the stream on the loudspeaker", \.movedSeen),
            durations("the observer's change event showing the stream muted", \.mutedSeen),
            durations("the observer's change event showing it unmuted again (the mute undone)", \.unmutedAgainSeen),
            rounds.contains { $0.soundBefore > 0 }
                ? "rounds with sound in the 200 ms before the unplug's position: \(rounds.count { $0.soundBefore > 0 }) (the alignment is off there)"
                : nil,
        ].compactMap { $0 }
    }
}
