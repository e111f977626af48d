import ConcurrencySupport
import PulseAudio
import RouteKitTesting
import Testing

/// The scenarios on a ``SimulatedServer``.
final class SimulatedScenarioServer: ScenarioServer {
    let server = SimulatedServer()
    private let streams = LockedValue<[Int: UInt32]>([:])

    func events() -> AsyncStream<PulseEvent> { server.events() }

    func plug(_ name: String, _ properties: [String: String]) async throws {
        try server.addSink(DeviceBlueprint(name: name, properties: properties))
    }

    func unplug(_ name: String) async throws {
        try server.removeSink(named: name)
    }

    func addFence() async throws -> UInt32 {
        try server.addSource(DeviceBlueprint(name: "fence")).index
    }

    func setFenceMute(_ muted: Bool) async throws {
        try await server.setSourceMute("fence", muted: muted)
    }

    func setDefaultSink(_ name: String) async throws {
        try await server.setDefaultSink(name)
    }

    func setSinkMute(_ name: String, _ muted: Bool) async throws {
        try await server.setSinkMute(name, muted: muted)
    }

    func moveStream(_ stream: Int, to sink: String) async throws {
        let index = try #require(streams.withLock { $0[stream] })
        try await server.moveSinkInput(index, toSink: sink)
    }

    func startStream(on sink: String) async throws -> Int {
        let input = try server.addSinkInput(StreamBlueprint(name: "/dev/zero", applicationName: "pacat"), sink: sink)
        return streams.withLock { streams in
            streams[streams.count] = input.index
            return streams.count - 1
        }
    }

    func stopStream(_ stream: Int) async throws {
        let index = try #require(streams.withLock { $0[stream] })
        try server.removeSinkInput(index)
    }

    func routing() async throws -> Routing {
        try await Self.routing(of: server)
    }
}

extension SimulatedServer: AudioServerSnapshots {}
