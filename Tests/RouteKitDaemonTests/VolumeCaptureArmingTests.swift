import AudioContext
import ConcurrencySupport
import PulseAudio
@testable import RouteKitDaemon
import Testing

/// When `StartVolumeCapture` may answer: once capture holds the default output (or waits for
/// one), so that a press made right after the answer is seen.
@Suite("Volume capture arming")
struct VolumeCaptureArmingTests {
    static let level = SinkLevel(volume: ChannelVolumes(channelCount: 2, percent: 50), isMuted: false)

    @Test("a start waits until capture holds a sink; once armed, another start does not wait")
    func waitsForTheHold() async {
        let arming = VolumeCaptureArming()
        let waiter = arming.waiter()
        #expect(waiter != nil)
        async let armed: Void? = waiter?.value()
        arming.note(.pressed(.up, sink: "speaker"))
        arming.note(.capturing(sink: "speaker", original: Self.level, held: Self.level))
        #expect(await armed != nil)
        #expect(arming.waiter() == nil, "armed already")
    }

    @Test("waiting for a sink arms it too; a release disarms it until the next hold")
    func releaseDisarms() async {
        let arming = VolumeCaptureArming()
        arming.note(.waitingForSink)
        #expect(arming.waiter() == nil)
        arming.note(.released(sink: "speaker", restored: Self.level))
        let waiter = arming.waiter()
        #expect(waiter != nil, "the default output moved away: the next start waits for the next hold")
        arming.note(.capturing(sink: "headset", original: Self.level, held: Self.level))
        #expect(await waiter?.value() != nil)
    }

    @Test("turning capture off lets a waiting start go, and the next start waits again")
    func disarmLetsGo() async {
        let arming = VolumeCaptureArming()
        arming.note(.capturing(sink: "speaker", original: Self.level, held: Self.level))
        arming.disarm()
        let waiter = arming.waiter()
        #expect(waiter != nil, "a stop and a start: the start waits for the new hold")
        arming.disarm()
        #expect(await waiter?.value() != nil)
    }
}
