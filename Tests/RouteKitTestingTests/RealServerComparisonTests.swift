import PulseAudio
import SoundServerSandbox
import Testing

/// The same scenarios on a real, sandboxed PulseAudio 16 and on the simulated server: the
/// events of every step (facility, kind, and which object, by role) and the routing each
/// step leaves must be the same.
@Suite("SimulatedServer against a real PulseAudio 16", .timeLimit(.minutes(2)))
struct RealServerComparisonTests {
    /// Runs `scenario` on both servers and compares them step by step.
    private func compare(_ scenario: (any ScenarioServer) async throws -> [StepRecord]) async throws -> [StepRecord] {
        let simulated = try await scenario(SimulatedScenarioServer())
        let real = try await RealScenarioServer.withServer { try await scenario($0) }
        #expect(simulated.count == real.count)
        for (simulatedStep, realStep) in zip(simulated, real) {
            #expect(simulatedStep == realStep, "step \"\(realStep.step)\"")
        }
        return real
    }

    @Test("plugging and unplugging null sinks")
    func plugAndUnplug() async throws {
        let real = try await compare(Scenarios.plugAndUnplug)
        // What PulseAudio 16.1 sends, for the record.
        #expect(real.first?.events.map(\.description) == [
            "sink#0 change", "source#0 change", "source#0 new", "sink#0 new", "server change", "module#0 new",
        ])
        #expect(real.first { $0.step.hasPrefix("unplug the default") }?.events.map(\.description) == [
            "server change", "source#1 remove", "sink#1 remove", "module#1 remove",
        ])
    }

    @Test("the default sink and mute")
    func defaultsAndMute() async throws {
        let real = try await compare(Scenarios.defaultsAndMute)
        #expect(real.first { $0.step == "set the same default again" }?.events == [])
        #expect(real.first { $0.step == "mute the speaker" }?.events.map(\.description) == ["sink#0 change"])
    }

    @Test("streams on sinks that go away, come back and are moved")
    func streams() async throws {
        let real = try await compare(Scenarios.streams)
        #expect(real.first { $0.step.hasPrefix("a stream starts") }?.events.map(\.description) == [
            "client#0 new", "client#0 change", "sinkInput#0 new", "sink#1 change",
        ])
        #expect(real.first { $0.step.hasPrefix("unplug the headset: the stream goes") }?.events.map(\.description) == [
            "server change", "sink#0 change", "sinkInput#0 change", "source#1 remove", "sink#1 remove", "module#1 remove",
        ])
    }
}
