import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// Call detection on real servers: a softphone that never talks to RouteKit, seen from the
/// detector's events as the engine would see them; the detector reading the streams on its
/// own connection, and following a manager's mirror (as the daemon runs it).
@Suite("Calls detected from streams on real servers")
struct StreamCallDetectorLiveTests {
    @Test("a softphone's phone-role playback and capture start a call with their streams; its end ends the call after the hold",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, DetectionRig.Source.allCases)
    func callStartsAndEnds(kind: SoundServerKind, source: DetectionRig.Source) async throws {
        let rule = CallDetectionRule()
        try await DetectionRig.run(kind, source: source, rule: rule) { rig in
            let softphone = try await rig.softphone()
            let started = try await rig.log.next("the call started", after: 0) { if case .started = $0 { true } else { false } }
            guard case .started(let call) = started else { return }
            #expect(call.application.processID == softphone.processID)
            let streams = try await rig.streams(of: softphone)
            #expect(call.playbackStreams == streams.playback && call.captureStreams == streams.capture,
                    "the call's streams are the softphone's: \(call) against \(streams)")
            #expect(rig.detector.calls == [call])

            softphone.stop()
            let stoppedAt = ContinuousClock.now
            let mark = await rig.log.count
            let ended = try await rig.log.next("the call ended", after: mark) { if case .ended = $0 { true } else { false } }
            #expect(ended == .ended(call.id))
            #expect(ContinuousClock.now - stoppedAt >= rule.hold, "the call outlives its streams by the hold")
            #expect(rig.detector.calls.isEmpty)
            // Nothing else was said: one start, changes at most (its streams going), one end.
            let told = await rig.log.events
            #expect(told.filter { if case .started = $0 { true } else { false } }.count == 1, "\(told)")
        }
    }

    @Test("a softphone that opens its microphone and speaker for 200 ms to probe them is no call; the call it makes next is",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, DetectionRig.Source.allCases)
    func probeIsNoCall(kind: SoundServerKind, source: DetectionRig.Source) async throws {
        try await DetectionRig.run(kind, source: source, rule: CallDetectionRule()) { rig in
            let probe = try await rig.softphone()
            _ = try await rig.streams(of: probe)
            // The probe's own length: it is the stimulus, not a wait for something to happen.
            try await Task.sleep(for: .milliseconds(200))
            probe.stop()
            try await waitUntil("the probe's streams gone", observer: rig.observer) {
                try await rig.streamCount(of: probe) == 0
            }

            // The detector's events are in order: a probe taken for a call would be told
            // before the call that follows it.
            let call = try await rig.softphone()
            let first = try await rig.log.next("the real call started", after: 0) { _ in true }
            guard case .started(let detected) = first else {
                Issue.record("the first event is not the real call's start: \(first)")
                return
            }
            #expect(detected.application.processID == call.processID, "the probe (pid \(probe.processID)) was taken for a call: \(detected)")
            call.stop()
        }
    }
}

/// A sandboxed server with a speaker, a detector running on its own connection or following a
/// manager's mirror there, the events it told, and an observer connection.
struct DetectionRig: Sendable {
    /// Where the detector gets the streams.
    enum Source: CaseIterable, Sendable, CustomTestStringConvertible {
        /// It reads them on its own connection.
        case ownConnection
        /// It follows the mirror of a manager on that connection, made with `mirrorsStreams`.
        case managerMirror

        var testDescription: String { self == .ownConnection ? "own connection" : "manager's mirror" }
    }

    let server: SandboxServer
    let detector: StreamCallDetector
    let observer: PulseClient
    let log: RecordedEvents<DetectedCallEvent>

    static func run(_ kind: SoundServerKind, source: Source = .ownConnection, rule: CallDetectionRule,
                    _ body: (DetectionRig) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-detection"))
            let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-observer"))
            defer {
                client.shutdown()
                observer.shutdown()
            }
            try await client.connect()
            try await observer.connect()
            _ = try await server.loadNullSink(name: "speaker", properties: ["device.description": "Speaker"])
            try await waitUntil("the speaker listed", observer: observer) { try await observer.sink(named: "speaker") != nil }
            let manager = source == .managerMirror
                ? AudioDeviceManager(server: client, mirrorsStreams: true, logger: LiveManagerRig.quietLogger) : nil
            try await manager?.start()
            let detector = manager.map { StreamCallDetector(manager: $0, rule: rule, logger: LiveManagerRig.quietLogger) }
                ?? StreamCallDetector(server: client, rule: rule, logger: LiveManagerRig.quietLogger)
            let log = RecordedEvents<DetectedCallEvent>()
            await log.follow(detector.events())
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await detector.run() }
                    defer { group.cancelAll() }
                    try await body(DetectionRig(server: server, detector: detector, observer: observer, log: log))
                }
            } catch {
                await manager?.stop()
                throw error
            }
            await manager?.stop()
        }
    }

    /// A softphone in a call on the speaker (recording its monitor), `media.role=phone`.
    func softphone() async throws -> SoftphoneProcess {
        try await SoftphoneProcess(on: server, source: "speaker.monitor", sink: "speaker")
    }

    /// The indexes of `process`'s playback and capture streams, once both are there.
    func streams(of process: SoftphoneProcess) async throws -> (playback: [UInt32], capture: [UInt32]) {
        try await waitUntil("pid \(process.processID)'s playback and capture", observer: observer) {
            let streams = try await self.currentStreams(of: process)
            return !streams.playback.isEmpty && !streams.capture.isEmpty
        }
        return try await currentStreams(of: process)
    }

    /// How many streams `process` has.
    func streamCount(of process: SoftphoneProcess) async throws -> Int {
        let streams = try await currentStreams(of: process)
        return streams.playback.count + streams.capture.count
    }

    private func currentStreams(of process: SoftphoneProcess) async throws -> (playback: [UInt32], capture: [UInt32]) {
        let pid = String(process.processID)
        let playback = try await observer.sinkInputs().filter { $0.properties["application.process.id"] == pid }.map(\.index)
        let capture = try await observer.sourceOutputs().filter { $0.properties["application.process.id"] == pid }.map(\.index)
        return (playback.sorted(), capture.sorted())
    }
}
