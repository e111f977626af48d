import Foundation

/// Percentiles of a set of durations, in milliseconds.
struct LatencySummary: CustomStringConvertible {
    var count: Int
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double

    init(_ samples: [Duration]) {
        let sorted = samples.map(\.milliseconds).sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
            return sorted[rank]
        }
        p50 = percentile(50)
        p90 = percentile(90)
        p99 = percentile(99)
        max = sorted.last ?? .nan
    }

    var description: String {
        "n=\(count) p50 \(format(p50)) ms  p90 \(format(p90)) ms  p99 \(format(p99)) ms  max \(format(max)) ms"
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

func format(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

/// Prints a line at once, even when standard output is a pipe.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
