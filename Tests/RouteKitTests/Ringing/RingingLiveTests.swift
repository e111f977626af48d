import MediaControl
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// Ringing on real servers: where a ringtone playing on a headset sounds while a call rings;
/// the follower reading the server itself, and computing from a manager's mirror that
/// carries the streams (`mirrored`, as in `routectl daemon`).
@Suite("Ringing on real servers")
struct RingingLiveTests {
    @Test("speaker: a ringtone on the headset moves to the speaker while the call rings and back once answered; music stays",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func ringsOnTheSpeaker(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_ring", "Ring Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let ringtone = try await rig.play(on: headset, role: "event")
            defer { ringtone.stop() }
            let music = try await rig.play(on: headset, role: "music")
            defer { music.stop() }
            let follower = RingtoneFollower(server: rig.managerClient, manager: rig.manager,
                                            settings: RingingSettings(placement: .speaker), logger: LiveManagerRig.quietLogger)
            try await RingtoneLog.running(follower) { log in
                let call = try await rig.manager.startCall(state: .ringing)
                try await rig.settle("the ringtone on the speaker") { try await rig.sinkName(of: ringtone) == speaker.name }
                let stream = try #require(try await rig.stream(of: ringtone))
                _ = try await log.wait("the move reported") { $0.contains { if case .moved(stream.index, _, .speaker) = $0 { true } else { false } } }
                #expect(try await rig.sinkName(of: music) == headset.name, "music stays on the headset")
                #expect(try await rig.defaultSink() == headset.name, "the route stays on the headset while ringing")

                _ = try await call.activate()
                try await rig.settle("the ringtone back on the headset") { try await rig.sinkName(of: ringtone) == headset.name }
                #expect(try await rig.sinkName(of: music) == headset.name)
                await call.end()
            }
        }
    }

    @Test("both: the ringtone plays on a sink combining the speaker and the headset while ringing; after, it is back and the sink gone",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func ringsOnBoth(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.wiredHeadset("usb_ring", "Ring USB Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.wiredHeadset), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let ringtone = try await rig.play(on: headset, role: "event")
            defer { ringtone.stop() }
            let follower = RingtoneFollower(server: rig.managerClient, manager: rig.manager,
                                            settings: RingingSettings(placement: .both), logger: LiveManagerRig.quietLogger)
            try await RingtoneLog.running(follower) { _ in
                let call = try await rig.manager.startCall(state: .ringing)
                try await rig.settle("the ringtone on the combined sink") {
                    try await rig.sinkName(of: ringtone) == RingtoneMachine.combinedSinkName
                }
                await call.end()
                try await rig.settle("the ringtone back on the headset, the combined sink gone") {
                    let back = try await rig.sinkName(of: ringtone) == headset.name
                    let gone = try await rig.observer.sink(named: RingtoneMachine.combinedSinkName) == nil
                    return back && gone
                }
                #expect(try await rig.defaultSink() == headset.name)
            }
        }
    }

    @Test("a second call ringing during an active call: the ringtone stays with the call; once the first ends, it rings on the speaker",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func secondCallRingsInPlace(kind: SoundServerKind, mirrored: Bool) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_ring2", "Ring Headset")
        let speaker = ConventionDevice.speakerphone()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)], mirrorsStreams: mirrored) { rig in
            try await rig.plug(speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let follower = RingtoneFollower(server: rig.managerClient, manager: rig.manager,
                                            settings: RingingSettings(placement: .speaker), logger: LiveManagerRig.quietLogger)
            try await RingtoneLog.running(follower) { log in
                let first = try await rig.manager.startCall()
                let second = try await rig.manager.startCall(state: .ringing)
                // Started after the second call rang: a ringtone the follower would move at once.
                let ringtone = try await rig.play(on: headset, role: "event")
                defer { ringtone.stop() }
                #expect(try await rig.sinkName(of: ringtone) == headset.name)
                let reported = await log.events
                #expect(reported.isEmpty, "nothing moved mid-call: \(reported)")

                await first.end()
                try await rig.settle("the ringtone on the speaker once the second call rings alone") {
                    try await rig.sinkName(of: ringtone) == speaker.name
                }
                await second.end()
                try await rig.settle("the ringtone back on the headset") { try await rig.sinkName(of: ringtone) == headset.name }
            }
        }
    }
}

/// Every event a ``RingtoneFollower`` announced, in order.
typealias RingtoneLog = RecordedEvents<RingtoneEvent>

extension RecordedEvents where Event == RingtoneEvent {
    /// Runs `follower` while `body` runs, recording what it announces; stops it after, which
    /// puts back what it moved.
    static func running(_ follower: RingtoneFollower, _ body: @escaping @Sendable (RingtoneLog) async throws -> Void) async throws {
        let log = RingtoneLog()
        let events = follower.events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await event in events { await log.append(event) } }
            group.addTask { await follower.run() }
            try await body(log)
            group.cancelAll()
        }
    }
}
