import Foundation
import SoundServerSandbox

/// How a fault drill repeats: `ROUTEKIT_FAULT_REPEATS` times (the scripts in
/// scripts/reliability set it; a test run does a few), at moments drawn from
/// `ROUTEKIT_FAULT_SEED` (printed, so that a failing drill can be run again the same way).
struct FaultDrill: Sendable {
    let repeats: Int
    let seed: UInt64

    /// The drill the environment asks for, `defaultRepeats` times unless it says otherwise.
    static func fromEnvironment(defaultRepeats: Int) -> FaultDrill {
        let environment = ProcessInfo.processInfo.environment
        return FaultDrill(repeats: environment["ROUTEKIT_FAULT_REPEATS"].flatMap { Int($0) } ?? defaultRepeats,
                          seed: environment["ROUTEKIT_FAULT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999))
    }

    /// The servers a drill runs on: `ROUTEKIT_FAULT_SERVERS` (`pipewire`, say), else both.
    static var serverKinds: [SoundServerKind] {
        let named = ProcessInfo.processInfo.environment["ROUTEKIT_FAULT_SERVERS"]?.split(separator: ",")
            .compactMap { SoundServerKind(rawValue: String($0)) } ?? []
        return named.isEmpty ? SoundServerKind.allCases : named
    }

    /// Writes a figure line the scripts collect: `fault-figure: NAME: VALUE`.
    static func figure(_ name: String, _ value: String) {
        print("fault-figure: \(name): \(value)")
    }
}

/// A permuted congruential generator (PCG-XSH-RR 64/32, two outputs a draw): the same
/// moments for the same seed.
struct DrillRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }

    mutating func next() -> UInt64 {
        UInt64(next32()) << 32 | UInt64(next32())
    }

    private mutating func next32() -> UInt32 {
        let old = state
        state = old &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let shifted = UInt32(truncatingIfNeeded: ((old >> 18) ^ old) >> 27)
        let rotation = UInt32(truncatingIfNeeded: old >> 59)
        return shifted >> rotation | shifted << ((~rotation &+ 1) & 31)
    }
}
