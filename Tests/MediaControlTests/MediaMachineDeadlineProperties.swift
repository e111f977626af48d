@testable import MediaControl
import PropertyBased
import PulseAudio
import Testing

/// The media guard's loop waits until the machine's deadline (a hold's release, a paused
/// player's resume window) and ticks the machine after every batch. A deadline still in the
/// past after a tick is one nothing clears: the loop would wake for it without pause, as two
/// of the engine's did (found 30 November). Random runs of unplugs and replugs, streams
/// moving, corking and muting, the player playing and pausing, call audio, and time passing.
@Suite("Media machine: no deadline left in the past")
struct MediaMachineDeadlineProperties {
    /// What happens next, as a step of a generated run.
    enum Step: Int, CaseIterable {
        case wait100ms, wait1s, wait5s, wait200s
        case headsetGoes, headsetBack, streamOnSpeaker, streamOnHeadset, streamCorked, streamMutedSeen
        case streamGone, streamBack, playerPlays, playerPauses, callAudioOn, callAudioOff
    }

    @Test("after each tick the machine's deadline is in the future, or there is none")
    func noPastDeadline() async {
        let steps = Gen.int(in: 0...(Step.allCases.count - 1)).array(of: 1...40)
        await propertyCheck(count: 1000, input: steps) { codes in
            var run = Run()
            for code in codes {
                run.take(Step(rawValue: code) ?? .wait100ms)
                if let past = run.deadlineInThePast() {
                    Issue.record("after steps \(codes.compactMap(Step.init)) the deadline is \(past) past")
                    return
                }
            }
        }
    }

    /// A machine fed as the guard feeds it, one step at a time, ticked after each.
    struct Run {
        var now = ContinuousClock.now
        var machine: MediaMachine
        var stream = Fixture.stream(10, on: Fixture.headset.index)
        var headsetPresent = true

        init() {
            machine = Fixture.machine(streams: [stream], players: [Fixture.player(.playing)], now: now)
        }

        mutating func take(_ step: Step) {
            switch step {
            case .wait100ms: now += .milliseconds(100)
            case .wait1s: now += .seconds(1)
            case .wait5s: now += .seconds(5)
            case .wait200s: now += .seconds(200)
            case .headsetGoes:
                guard headsetPresent else { break }
                headsetPresent = false
                // The server moves the stream to the speaker, then removes the sink.
                stream.sink = Fixture.speaker.index
                _ = machine.defaultSinkChanged(Fixture.speaker.name, now: now)
                _ = machine.streamSeen(stream, now: now)
                _ = machine.sinkRemoved(Fixture.headset.index, now: now)
            case .headsetBack:
                guard !headsetPresent else { break }
                headsetPresent = true
                _ = machine.sinkSeen(Fixture.headset, now: now)
                _ = machine.defaultSinkChanged(Fixture.headset.name, now: now)
            case .streamOnSpeaker:
                stream.sink = Fixture.speaker.index
                _ = machine.streamSeen(stream, now: now)
            case .streamOnHeadset:
                guard headsetPresent else { break }
                stream.sink = Fixture.headset.index
                _ = machine.streamSeen(stream, now: now)
            case .streamCorked:
                stream.isCorked.toggle()
                _ = machine.streamSeen(stream, now: now)
            case .streamMutedSeen:
                stream.isMuted.toggle()
                _ = machine.streamSeen(stream, now: now)
            case .streamGone:
                _ = machine.streamRemoved(stream.index, now: now)
            case .streamBack:
                _ = machine.streamSeen(stream, now: now)
            case .playerPlays: _ = machine.playerSeen(Fixture.player(.playing), now: now)
            case .playerPauses: _ = machine.playerSeen(Fixture.player(.paused), now: now)
            case .callAudioOn: _ = machine.callAudioChanged(true, now: now)
            case .callAudioOff: _ = machine.callAudioChanged(false, now: now)
            }
            // The guard's batch ends as its loop's does.
            _ = machine.tick(now: now)
        }

        /// How long ago the machine's deadline passed; nil when it is ahead, or none.
        func deadlineInThePast() -> Duration? {
            guard let deadline = machine.deadline, deadline <= now else { return nil }
            return now - deadline
        }
    }
}
