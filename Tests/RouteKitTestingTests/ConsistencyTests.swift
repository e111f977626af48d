import PulseAudio
import RouteKitTesting
import Testing

@Suite("Snapshots stay consistent whatever happens")
struct ConsistencyTests {
    /// A small deterministic generator, so that a failure can be replayed.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }

        mutating func next(_ bound: Int) -> Int {
            Int((next() >> 33) % UInt64(bound))
        }
    }

    private static let cards = [Fixtures.laptop, Fixtures.headset, Fixtures.usb, Fixtures.hdmi,
                                .bluetoothHeadset(address: "AA:BB:CC:DD:EE:FF", name: "Jabra",
                                                  headsetProfile: .handsfreeHeadUnit)]

    @Test("after every step of a long script, for several seeds", arguments: [1, 2, 3, 4] as [UInt64])
    func longScript(seed: UInt64) async throws {
        let server = SimulatedServer()
        var random = Generator(state: seed)
        for step in 0..<300 {
            try await randomStep(server, &random)
            try await expectConsistent(server)
            if step % 50 == 49 { server.simulateServerRestart() }
        }
    }

    private func randomStep(_ server: SimulatedServer, _ random: inout Generator) async throws {
        let cards = try await server.cards()
        let sinks = try await server.sinks()
        let sources = try await server.sources()
        let inputs = try await server.sinkInputs()
        let blueprint = Self.cards[random.next(Self.cards.count)]
        let present = cards.first { $0.name == blueprint.name }
        switch random.next(9) {
        case 0:
            if present == nil { try server.addCard(blueprint) } else { try server.removeCard(named: blueprint.name) }
        case 1:
            if let present, let jack = blueprint.jacks.first {
                try server.setJack(card: present.name, jack: jack.name, plugged: random.next(2) == 0)
            }
        case 2:
            if let present {
                let profile = present.profiles[random.next(present.profiles.count)]
                try? await server.setCardProfile(present.name, profile: profile.name)
            }
        case 3:
            if let present {
                let profile = present.profiles[random.next(present.profiles.count)]
                try server.setProfileAvailability(card: present.name, profile: profile.name, random.next(3) != 0)
            }
        case 4:
            if !sinks.isEmpty { try server.addSinkInput(sink: sinks[random.next(sinks.count)].name) }
            if !sources.isEmpty, random.next(2) == 0 { try server.addSourceOutput() }
        case 5:
            if !inputs.isEmpty { try server.removeSinkInput(inputs[random.next(inputs.count)].index) }
        case 6:
            if !inputs.isEmpty, !sinks.isEmpty {
                let stream = inputs[random.next(inputs.count)].index
                try await server.moveSinkInput(stream, toSink: sinks[random.next(sinks.count)].name)
            }
        case 7:
            if !sinks.isEmpty { try await server.setDefaultSink(sinks[random.next(sinks.count)].name) }
        default:
            if let sink = sinks.randomElement(using: &random), let port = sink.ports.randomElement(using: &random) {
                try await server.setSinkPort(sink.name, port: port.name)
            }
            if !inputs.isEmpty { try server.setSinkInputCorked(inputs[random.next(inputs.count)].index, random.next(2) == 0) }
        }
    }
}
