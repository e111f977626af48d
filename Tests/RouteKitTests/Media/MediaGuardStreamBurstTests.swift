import MediaControl
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// What a burst of stream events (a route switch moving fifty streams, a browser opening
/// thirty tabs' audio) costs media pausing: the server is asked for the burst's streams once
/// or twice, not once a stream, and the guard still acts on every one.
@Suite("Media pausing: a burst of moved streams")
struct MediaGuardStreamBurstTests {
    /// The simulated server, with the guard's stream reads held back while the test asks
    /// (``AnswerHold``) and every stream and sink read written down.
    final class CountingServer: ForwardingServer, VolumeControllingServer {
        let base: SimulatedServer
        let streamAnswers = AnswerHold()
        let reads = RecordedEvents<String>()

        init(_ base: SimulatedServer) { self.base = base }

        /// The stream reads asked since the `mark`-th read.
        func streamReads(since mark: Int) async -> [String] {
            await reads.events.dropFirst(mark).filter { $0.hasPrefix("sink input") }
        }

        func sinkInput(at index: UInt32) async throws -> SinkInputInfo? {
            await reads.append("sink input #\(index)")
            await streamAnswers.pass()
            return try await base.sinkInput(at: index)
        }

        func sinkInputs() async throws -> [SinkInputInfo] {
            await reads.append("sink inputs")
            await streamAnswers.pass()
            return try await base.sinkInputs()
        }

        func sink(at index: UInt32) async throws -> SinkInfo? {
            await reads.append("sink #\(index)")
            return try await base.sink(at: index)
        }

        func setSinkMute(_ sink: String, muted: Bool) async throws { try await base.setSinkMute(sink, muted: muted) }
        func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws { try await base.setSinkVolume(sink, volume) }
        func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws {
            try await base.setSinkInputMute(sinkInput, muted: muted)
        }
    }

    /// Waits until `condition` holds of the server's streams, reading them after each event.
    static func waitForStreams(_ server: SimulatedServer, _ what: String,
                               _ condition: @escaping @Sendable ([SinkInputInfo]) -> Bool) async throws {
        let events = server.events()
        try await withTimeout(what, .seconds(10)) {
            if condition(try await server.sinkInputs()) { return }
            for await _ in events where condition(try await server.sinkInputs()) { return }
        }
    }

    @Test("thirty streams starting during a call: the first read, the twenty-nine that came during its reading listed after it; all held muted")
    func burst() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addCard(.laptopAnalog())
        let server = CountingServer(simulated)
        let manager = AudioDeviceManager(server: simulated, preferences: [.kind(.speakerphone)], logger: .forTests())
        let mediaGuard = MediaGuard(server: server, manager: manager, players: [], logger: .forTests())
        try await manager.start()
        do {
            try await MediaEventLog.running(mediaGuard) { log in
                await manager.activateCallAudio()
                _ = server.streamAnswers.start()
                // Released on every way out, so that a failure below ends the guard, not the run.
                defer { server.streamAnswers.release() }
                let mark = await server.reads.count
                let stream = { (number: Int) in
                    try simulated.addSinkInput(StreamBlueprint(name: "Stream \(number)",
                                                               properties: ["media.role": "music", "application.process.id": "\(5000 + number)"])).index
                }
                // The first stream starts a reading, held; the twenty-nine after it wait.
                let first = try stream(1)
                try await server.reads.wait("the first stream's reading") { $0.contains("sink input #\(first)") }
                let streams = try [first] + (2...30).map(stream)
                // A sentinel: a sink that appears is read a moment later, so once its read is
                // asked, the guard has taken in every stream event before it.
                let marker = try simulated.addSink(DeviceBlueprint(name: "marker", description: "Marker")).index
                try await server.reads.wait("the marker read") { $0.contains("sink #\(marker)") }
                let whileHeld = await server.streamReads(since: mark)
                #expect(whileHeld == ["sink input #\(first)"], "one reading in flight, the rest waiting")
                server.streamAnswers.release()

                try await Self.waitForStreams(simulated, "all thirty muted for the call") { infos in
                    infos.filter { streams.contains($0.index) }.allSatisfy(\.isMuted)
                }
                // Then the twenty-nine together; what follows reads the guard's own mutes.
                let reads = await server.streamReads(since: mark)
                #expect(Array(reads.prefix(2)) == ["sink input #\(first)", "sink inputs"], "\(reads)")
                #expect(await log.events.contains { if case .held(.call, _, _, _) = $0 { true } else { false } })
            }
        } catch {
            await manager.stop()
            throw error
        }
        await manager.stop()
    }
}
