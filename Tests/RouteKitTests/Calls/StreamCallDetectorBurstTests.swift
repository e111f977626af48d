import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// What a burst of streams costs call detection: the streams announced together are read as
/// one list a direction, not one lookup each, and the call among them is still found.
@Suite("Calls detected from a burst of streams")
struct StreamCallDetectorBurstTests {
    /// The simulated server, with every stream read written down, playback reads held back
    /// while the test asks (``AnswerHold``), and its events handed to one follower whose
    /// progress the test can await.
    final class CountingServer: ForwardingServer {
        let base: SimulatedServer
        let reads = RecordedEvents<String>()
        let playbackAnswers = AnswerHold()
        let follower: HandledEvents<PulseEvent>

        init(_ base: SimulatedServer) {
            self.base = base
            follower = HandledEvents(base.events())
        }

        func events() -> AsyncStream<PulseEvent> { follower.stream() }

        func sinkInput(at index: UInt32) async throws -> SinkInputInfo? {
            await reads.append("sink input #\(index)")
            await playbackAnswers.pass()
            return try await base.sinkInput(at: index)
        }

        func sinkInputs() async throws -> [SinkInputInfo] {
            await reads.append("sink inputs")
            await playbackAnswers.pass()
            return try await base.sinkInputs()
        }

        func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo? {
            await reads.append("source output #\(index)")
            return try await base.sourceOutput(at: index)
        }

        func sourceOutputs() async throws -> [SourceOutputInfo] {
            await reads.append("source outputs")
            return try await base.sourceOutputs()
        }
    }

    @Test("a player, then eleven more and a softphone's two streams during its reading: those listed after it, the capture looked up, the call found")
    func burst() async throws {
        let simulated = SimulatedServer()
        defer { simulated.shutdown() }
        _ = try simulated.addCard(.laptopAnalog())
        let server = CountingServer(simulated)
        let detector = StreamCallDetector(server: server, rule: CallDetectionRule(minimumDuration: .milliseconds(100)),
                                          logger: .forTests())
        let log = RecordedEvents<DetectedCallEvent>()
        let events = detector.events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await event in events { await log.append(event) } }
            group.addTask { await detector.run() }
            // The detector's first reading of everything, so that the burst's reads are counted apart.
            try await server.reads.wait("the first reading") { $0.contains("sink inputs") && $0.contains("source outputs") }
            let mark = await server.reads.count
            _ = server.playbackAnswers.start()
            // Released on every way out, so that a failure below ends the detector, not the run.
            defer { server.playbackAnswers.release() }

            let player = { (number: Int) in
                try simulated.addSinkInput(StreamBlueprint(name: "Player \(number)",
                                                           properties: ["media.role": "music", "application.process.id": "\(6000 + number)"])).index
            }
            // The first player starts a reading, held; everything after it waits.
            let first = try player(1)
            try await server.reads.wait("the first player's reading") { $0.contains("sink input #\(first)") }
            for number in 2...12 { _ = try player(number) }
            let phone = ["media.role": "phone", "application.process.id": "7000"]
            let playback = try simulated.addSinkInput(StreamBlueprint(name: "Call", applicationName: "Phone", properties: phone)).index
            let capture = try simulated.addSourceOutput(StreamBlueprint(name: "Call", applicationName: "Phone", properties: phone)).index
            // Once the detector has taken in the capture's event, the last, every stream after
            // the first waits for the next reading.
            let captureAppeared = SubscriptionEvent(facility: .sourceOutput, kind: .new, index: capture)
            try await server.follower.handled.wait("the detector took in the burst") { $0.contains(.subscription(captureAppeared)) }
            let whileHeld = Array(await server.reads.events.dropFirst(mark))
            #expect(whileHeld == ["sink input #\(first)"], "one reading in flight, the rest waiting")
            server.playbackAnswers.release()

            let started = try await log.next("the call started", after: 0) { if case .started = $0 { true } else { false } }
            guard case .started(let call) = started else { return }
            #expect(call.playbackStreams == [playback] && call.captureStreams == [capture])
            #expect(call.application.processID == 7000)

            let reads = Array(await server.reads.events.dropFirst(mark))
            #expect(reads.filter { $0.hasPrefix("sink input") } == ["sink input #\(first)", "sink inputs"],
                    "twelve playback streams after the first, listed once: \(reads)")
            #expect(reads.filter { $0.hasPrefix("source output") } == ["source output #\(capture)"], "one capture stream, looked up: \(reads)")
            group.cancelAll()
        }
    }
}
