import PulseAudio
@testable import RouteKit
import Testing

/// Call detection as decisions: which stream pairs are calls, when they start and end.
@Suite("Call detection machine")
struct CallDetectionMachineTests {
    let start = ContinuousClock.now
    let rule = CallDetectionRule()

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    @Test("a phone playback and capture of one process: a call once both ran for the minimum, not before")
    func pairStartsAfterTheMinimum() {
        var machine = CallDetectionMachine(rule: rule)
        #expect(machine.streamSeen(.phone(.playback, 10, pid: 100), now: at(0)).isEmpty)
        #expect(machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(100)).isEmpty)
        #expect(machine.deadline == at(850), "the minimum counts from the second stream")
        #expect(machine.tick(now: at(849)).isEmpty)
        let actions = machine.tick(now: at(850))
        #expect(actions == [.callStarted(DetectedCall(id: .init(rawValue: 1), application: .softphone(100),
                                                      playbackStreams: [10], captureStreams: [20]))])
        #expect(machine.deadline == nil, "nothing waits for time while the call runs")
        #expect(machine.ongoingCalls.map(\.id.rawValue) == [1])
    }

    @Test("a pair opened for 200 ms to probe the devices is no call")
    func probeIsNoCall() {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.phone(.playback, 10, pid: 100), now: at(0))
        _ = machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(0))
        #expect(machine.streamRemoved(.init(.capture, 20), now: at(200)).isEmpty)
        #expect(machine.streamRemoved(.init(.playback, 10), now: at(200)).isEmpty)
        #expect(machine.deadline == nil)
        #expect(machine.tick(now: at(5000)).isEmpty)
        #expect(machine.ongoingCalls.isEmpty)
    }

    @Test("a phone capture alone, however long, is no call; nor a capture beside another process's playback")
    func captureAloneIsNoCall() {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(0))
        _ = machine.streamSeen(.phone(.playback, 11, pid: 200), now: at(0))
        #expect(machine.deadline == nil)
        #expect(machine.tick(now: at(60_000)).isEmpty)
        #expect(machine.ongoingCalls.isEmpty)
    }

    @Test("a pair without the phone role is no call; nor is one whose only phone stream is the playback")
    func roleMatters() {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.stream(.playback, 10, pid: 100, role: "music"), now: at(0))
        _ = machine.streamSeen(.stream(.capture, 20, pid: 100, role: nil), now: at(0))
        _ = machine.streamSeen(.phone(.playback, 11, pid: 100), now: at(0))
        #expect(machine.tick(now: at(5000)).isEmpty)
        // PipeWire's own vocabulary, any case, is a call role too.
        _ = machine.streamSeen(.stream(.capture, 21, pid: 100, role: "Communication"), now: at(5000))
        #expect(machine.tick(now: at(5750)).count == 1)
    }

    @Test("a corked pair does not start a call; it does once it runs, counted from then")
    func corkedDoesNotStart() {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.phone(.playback, 10, pid: 100, corked: true), now: at(0))
        _ = machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(0))
        #expect(machine.tick(now: at(2000)).isEmpty)
        _ = machine.streamSeen(.phone(.playback, 10, pid: 100), now: at(2000))
        #expect(machine.tick(now: at(2749)).isEmpty)
        #expect(machine.tick(now: at(2750)).count == 1)
        // Corked mid-call (on hold): the call goes on.
        #expect(machine.streamSeen(.phone(.playback, 10, pid: 100, corked: true), now: at(3000)).isEmpty)
        #expect(machine.tick(now: at(10_000)).isEmpty)
        #expect(machine.ongoingCalls.count == 1)
    }

    @Test("a stream relinked within the hold (removed, back under a new index) keeps the call, with its new index")
    func relinkKeepsTheCall() throws {
        var machine = try Self.running(rule, since: start)
        #expect(machine.streamRemoved(.init(.playback, 10), now: at(1000)) == [.callChanged(.softphone(1, playback: [], capture: [20]))])
        #expect(machine.deadline == at(3000))
        let back = machine.streamSeen(.phone(.playback, 12, pid: 100), now: at(1050))
        #expect(back == [.callChanged(.softphone(1, playback: [12], capture: [20]))])
        #expect(machine.deadline == nil)
        #expect(machine.tick(now: at(10_000)).isEmpty)
        // A move reported as a change of the same stream changes nothing.
        #expect(machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(10_000)).isEmpty)
        #expect(machine.ongoingCalls.map(\.id.rawValue) == [1])
    }

    @Test("a side gone for the hold ends the call, once; the same application calling again is a new call")
    func endAfterHold() throws {
        var machine = try Self.running(rule, since: start)
        _ = machine.streamRemoved(.init(.capture, 20), now: at(1000))
        #expect(machine.tick(now: at(2999)).isEmpty)
        #expect(machine.tick(now: at(3000)) == [.callEnded(.init(rawValue: 1))])
        #expect(machine.ongoingCalls.isEmpty)
        #expect(machine.deadline == nil)
        #expect(machine.streamRemoved(.init(.playback, 10), now: at(3100)).isEmpty)
        _ = machine.streamSeen(.phone(.playback, 30, pid: 100), now: at(4000))
        _ = machine.streamSeen(.phone(.capture, 40, pid: 100), now: at(4000))
        #expect(machine.tick(now: at(4750)) == [.callStarted(.softphone(2, playback: [30], capture: [40]))])
    }

    @Test("two applications calling at once are two calls with their own ids, ended apart")
    func twoApplicationsTwoCalls() {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.phone(.playback, 10, pid: 100), now: at(0))
        _ = machine.streamSeen(.phone(.capture, 20, pid: 100), now: at(0))
        _ = machine.streamSeen(.phone(.playback, 11, pid: 200), now: at(100))
        _ = machine.streamSeen(.phone(.capture, 21, pid: 200), now: at(100))
        #expect(machine.tick(now: at(750)) == [.callStarted(.softphone(1, playback: [10], capture: [20]))])
        #expect(machine.tick(now: at(850)) == [.callStarted(DetectedCall(id: .init(rawValue: 2), application: .softphone(200),
                                                                        playbackStreams: [11], captureStreams: [21]))])
        _ = machine.streamRemoved(.init(.playback, 11), now: at(1000))
        _ = machine.streamRemoved(.init(.capture, 21), now: at(1000))
        #expect(machine.tick(now: at(3000)) == [.callEnded(.init(rawValue: 2))])
        #expect(machine.ongoingCalls.map(\.id.rawValue) == [1])
    }

    @Test("a configured application name makes a call without any role; its playback and capture may carry different names")
    func configuredApplicationName() {
        let rule = CallDetectionRule(applicationNames: ["Chromium", "Chromium input"])
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.stream(.playback, 10, pid: 300, role: nil, name: "Chromium"), now: at(0))
        _ = machine.streamSeen(.stream(.capture, 20, pid: 300, role: nil, name: "Chromium input"), now: at(0))
        let actions = machine.tick(now: at(750))
        #expect(actions == [.callStarted(DetectedCall(id: .init(rawValue: 1),
                                                      application: DetectedApplication(name: "Chromium", processID: 300, processBinary: "softphone"),
                                                      playbackStreams: [10], captureStreams: [20]))])
        // Without the rule, the same streams are nothing.
        var plain = CallDetectionMachine(rule: CallDetectionRule())
        _ = plain.streamSeen(.stream(.playback, 10, pid: 300, role: nil, name: "Chromium"), now: at(0))
        _ = plain.streamSeen(.stream(.capture, 20, pid: 300, role: nil, name: "Chromium input"), now: at(0))
        #expect(plain.tick(now: at(5000)).isEmpty)
    }

    @Test("a configured binary makes a call; without a process id, streams of one client pair")
    func configuredBinaryAndClient() {
        var machine = CallDetectionMachine(rule: CallDetectionRule(processBinaries: ["baresip"]))
        var playback = CallStream.stream(.playback, 10, pid: nil, role: nil, binary: "baresip")
        playback.client = 7
        var capture = CallStream.stream(.capture, 20, pid: nil, role: nil, binary: "baresip")
        capture.client = 7
        var stranger = CallStream.stream(.capture, 21, pid: nil, role: nil, binary: "baresip")
        stranger.client = 8
        _ = machine.streamSeen(playback, now: at(0))
        _ = machine.streamSeen(stranger, now: at(0))
        #expect(machine.tick(now: at(5000)).isEmpty, "another client's capture is not this client's call")
        _ = machine.streamSeen(capture, now: at(5000))
        #expect(machine.tick(now: at(5750)).map(\.event) == [.started(DetectedCall(
            id: .init(rawValue: 1), application: DetectedApplication(name: "Softphone", processID: nil, processBinary: "baresip"),
            playbackStreams: [10], captureStreams: [20]))])
    }

    @Test("a reconnection's fresh list keeps a call whose streams are still there, and starts the hold for one whose are not")
    func resetKeepsAndHolds() throws {
        var machine = try Self.running(rule, since: start)
        #expect(machine.reset([.phone(.playback, 10, pid: 100), .phone(.capture, 20, pid: 100)], now: at(2000)).isEmpty)
        #expect(machine.reset([], now: at(3000)) == [.callChanged(.softphone(1, playback: [], capture: []))])
        #expect(machine.tick(now: at(5000)) == [.callEnded(.init(rawValue: 1))])
    }

    @Test("stopping ends every call in progress")
    func stoppingEndsCalls() throws {
        var machine = try Self.running(rule, since: start)
        #expect(machine.stopping() == [.callEnded(.init(rawValue: 1))])
        #expect(machine.ongoingCalls.isEmpty)
    }

    /// A machine with call 1 running: process 100's playback 10 and capture 20, since 0 ms.
    static func running(_ rule: CallDetectionRule, since start: ContinuousClock.Instant) throws -> CallDetectionMachine {
        var machine = CallDetectionMachine(rule: rule)
        _ = machine.streamSeen(.phone(.playback, 10, pid: 100), now: start)
        _ = machine.streamSeen(.phone(.capture, 20, pid: 100), now: start)
        try #require(machine.tick(now: start.advanced(by: .milliseconds(750))).count == 1)
        return machine
    }
}

extension CallStream {
    /// A stream of the test's softphone with `media.role=phone`.
    static func phone(_ direction: Direction, _ index: UInt32, pid: Int32, corked: Bool = false) -> CallStream {
        stream(direction, index, pid: pid, role: "phone", corked: corked)
    }

    static func stream(_ direction: Direction, _ index: UInt32, pid: Int32?, role: String?, name: String = "Softphone",
                       binary: String = "softphone", corked: Bool = false) -> CallStream {
        var properties = ["application.name": name, "application.process.binary": binary]
        if let pid { properties["application.process.id"] = String(pid) }
        if let role { properties["media.role"] = role }
        return CallStream(Key(direction, index), client: nil, isCorked: corked, properties: properties)
    }
}

extension DetectedApplication {
    static func softphone(_ pid: Int32) -> DetectedApplication {
        DetectedApplication(name: "Softphone", processID: pid, processBinary: "softphone")
    }
}

extension DetectedCall {
    static func softphone(_ id: UInt64, playback: [UInt32], capture: [UInt32]) -> DetectedCall {
        DetectedCall(id: .init(rawValue: id), application: .softphone(100), playbackStreams: playback, captureStreams: capture)
    }
}
