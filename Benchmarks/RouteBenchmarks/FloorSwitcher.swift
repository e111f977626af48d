import BenchmarkSupport
import Foundation
import SoundServerSandbox

/// `Benchmarks/Helpers/floor-switcher.c`: the least a switcher outside the server can do (one
/// lookup of a new sink, one set-default for a Bluetooth one; one set-default to the speaker
/// when that sink goes), the floor RouteKit is measured against. Its "switched" and
/// "fell back" lines are its reports.
final class FloorSwitcher: Switcher {
    let name = "floor client"
    let reportsSwitches = true
    let fallsBack = true
    private let binary: String
    private var process: LineEmittingProcess?

    /// A switcher running the compiled floor client at `binary`.
    init(binary: String) {
        self.binary = binary
    }

    /// Starts the client with the speaker as its fallback; returns once it is subscribed.
    func start(_ bench: Bench) async throws {
        let signals = bench.signals
        process = try await LineEmittingProcess(executable: binary, arguments: [Bench.speaker],
                                                environment: bench.server.environment) { _, line in
            signals.push(.floor(line))
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while let signal = await signals.next(before: deadline) {
            bench.note(signal)
            if case .floor(let line) = signal, line.hasPrefix("ready") { return }
            if case .floor(let line) = signal, line.hasPrefix("floor-switcher:") { throw BenchError(line) }
        }
        throw BenchError("the floor client did not say it is ready within 10 s")
    }

    /// Ends the client.
    func stop(_ bench: Bench) async {
        await process?.stop()
        process = nil
    }
}
