import Foundation

/// Percentiles of a set of durations, in milliseconds.
public struct LatencySummary: CustomStringConvertible {
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// The summary of `samples`.
    public init(_ samples: [Duration]) {
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

    /// `n=… p50 … ms …`.
    public var description: String {
        "n=\(count) p50 \(format(p50)) ms  p90 \(format(p90)) ms  p99 \(format(p99)) ms  max \(format(max)) ms"
    }
}

extension Duration {
    /// The duration in milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

/// A figure rounded to three decimals.
public func format(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

/// Prints a line at once, even when standard output is a pipe.
public func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
