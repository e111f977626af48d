import ConcurrencySupport
import TestSupport
import Foundation
import PulseAudio
import SoundServerSandbox
import Testing

/// The scenarios on a real PulseAudio in a sandbox, driven through one `PulseClient` (so that
/// no `pactl` client comes and goes) and `pacat` processes for streams.
final class RealScenarioServer: ScenarioServer {
    let sandbox: SandboxServer
    let client: PulseClient
    private let modules = LockedValue<[String: UInt32]>([:])
    private let streams = LockedValue<[Int: StreamProcess]>([:])

    init(sandbox: SandboxServer, client: PulseClient) {
        self.sandbox = sandbox
        self.client = client
    }

    /// Runs `body` with a scenario server on a fresh sandboxed PulseAudio.
    static func withServer<Result: Sendable>(_ body: (RealScenarioServer) async throws -> Result) async throws -> Result {
        try await SandboxServer.withServer(.pulseaudio) { sandbox in
            let client = PulseClient(configuration: .init(server: sandbox.serverAddress, applicationName: "routekit-scenario"))
            try await client.connect()
            let server = RealScenarioServer(sandbox: sandbox, client: client)
            defer {
                server.stopAllStreams()
                client.shutdown()
            }
            return try await body(server)
        }
    }

    func events() -> AsyncStream<PulseEvent> { client.events() }

    func plug(_ name: String, _ properties: [String: String]) async throws {
        var arguments = "sink_name=\(name)"
        if !properties.isEmpty {
            let list = properties.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            arguments += " sink_properties=\"\(list)\""
        }
        let module = try await client.loadModule("module-null-sink", arguments: arguments)
        modules.withLock { $0[name] = module }
    }

    func unplug(_ name: String) async throws {
        let module = try #require(modules.withLock { $0.removeValue(forKey: name) })
        try await client.unloadModule(module)
    }

    func addFence() async throws -> UInt32 {
        let module = try await client.loadModule("module-null-source", arguments: "source_name=fence")
        modules.withLock { $0["fence"] = module }
        return try #require(try await client.source(named: "fence")).index
    }

    func setFenceMute(_ muted: Bool) async throws {
        try await client.setSourceMute("fence", muted: muted)
    }

    func setDefaultSink(_ name: String) async throws {
        try await client.setDefaultSink(name)
    }

    func setSinkMute(_ name: String, _ muted: Bool) async throws {
        try await client.setSinkMute(name, muted: muted)
    }

    func moveStream(_ stream: Int, to sink: String) async throws {
        let process = try #require(streams.withLock { $0[stream] })
        let pid = String(process.processID)
        let input = try #require(try await client.sinkInputs().first { $0.properties["application.process.id"] == pid })
        try await client.moveSinkInput(input.index, toSink: sink)
    }

    func startStream(on sink: String) async throws -> Int {
        let process = try await StreamProcess(on: sandbox, .playback, device: sink)
        return streams.withLock { streams in
            streams[streams.count] = process
            return streams.count - 1
        }
    }

    func stopStream(_ stream: Int) async throws {
        let process = try #require(streams.withLock { $0[stream] })
        process.stop()
    }

    func routing() async throws -> Routing {
        try await Self.routing(of: client)
    }

    private func stopAllStreams() {
        for process in streams.withLock({ Array($0.values) }) {
            process.stop()
        }
    }
}

