import Foundation
import SoundServerSandbox
import Testing

/// Many PipeWire sandboxes started at once, each given a sink at once, the way a full test run
/// starts them: WirePlumber must make that sink the default in every one. A measuring tool,
/// not part of ordinary runs: `ROUTEKIT_SANDBOX_STRESS=<rounds>x<width>` (say `20x8`, beside a
/// CPU hog or two) runs it; without it the test returns at once.
@Suite struct SandboxStartStressTests {
    @Test func everySandboxStartedInACrowdChoosesADefaultSink() async throws {
        guard let spec = ProcessInfo.processInfo.environment["ROUTEKIT_SANDBOX_STRESS"] else { return }
        let numbers = spec.split(separator: "x").compactMap { Int($0) }
        try #require(numbers.count == 2, "ROUTEKIT_SANDBOX_STRESS=<rounds>x<width>")
        let (rounds, width) = (numbers[0], numbers[1])
        var failures: [String] = []
        var times: [Duration] = []
        for _ in 0..<rounds {
            let results = await withTaskGroup(of: Result<Duration, StressFailure>.self) { group in
                for _ in 0..<width {
                    group.addTask { await Self.startAndPlug() }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for result in results {
                switch result {
                case .success(let time): times.append(time)
                case .failure(let failure): failures.append(failure.description)
                }
            }
        }
        times.sort()
        print("sandbox stress: \(failures.count) failures in \(rounds * width) starts;"
              + " start to default: p50 \(times.isEmpty ? "-" : "\(times[times.count / 2])"), max \(times.last.map { "\($0)" } ?? "-")")
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    struct StressFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts a sandbox, loads a sink at once and waits (10 s at most) until it is the default;
    /// returns how long that took from the start.
    private static func startAndPlug() async -> Result<Duration, StressFailure> {
        let began = ContinuousClock.now
        let server: SandboxServer
        do {
            server = try await SandboxServer.start(.pipewire)
        } catch {
            return .failure(StressFailure(description: "start: \(error)"))
        }
        var outcome: Result<Duration, StressFailure> = .failure(StressFailure(description: "no default sink within 10 s"))
        do {
            _ = try await server.loadNullSink(name: "builtin", properties: ["device.form_factor": "internal"])
            while ContinuousClock.now < began + .seconds(10) {
                if try await server.pactl("get-default-sink").trimmingCharacters(in: .whitespacesAndNewlines) == "builtin" {
                    outcome = .success(ContinuousClock.now - began)
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        } catch {
            outcome = .failure(StressFailure(description: "\(error)"))
        }
        if case .failure(let failure) = outcome {
            let log = (try? String(contentsOfFile: server.directory + "/wireplumber.log", encoding: .utf8)) ?? ""
            outcome = .failure(StressFailure(description: "\(failure.description); wireplumber.log:\n\(log)"))
        }
        await server.stop()
        return outcome
    }
}
