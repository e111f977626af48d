@testable import AudioContext
import PulseAudio
import Testing

/// The capture machine alone: readings in, requests and presses out.
@Suite("Volume capture: the machine")
struct VolumeCaptureMachineTests {
    static let normal = ChannelVolumes.normal
    static let step = normal / 20

    static func reading(_ volume: UInt32, _ right: UInt32? = nil, muted: Bool = false, on sink: String = "speakers") -> DefaultSinkReading {
        DefaultSinkReading(sink: sink, level: SinkLevel(volume: ChannelVolumes([volume, right ?? volume]), isMuted: muted))
    }

    static func presses(_ actions: [VolumeCaptureAction]) -> [VolumeButton] {
        actions.compactMap {
            guard case .report(.pressed(let button, _)) = $0 else { return nil }
            return button
        }
    }

    /// Performs the requests as a server would answer them (each acknowledged).
    static func answer(_ actions: [VolumeCaptureAction], _ machine: inout VolumeCaptureMachine) {
        for action in actions { machine.applied(action) }
    }

    @Test("a press is reported with its direction and undone; the echo of the undo is no press")
    func pressAndEcho() {
        var machine = VolumeCaptureMachine()
        let half = Self.normal / 2
        let start = machine.start(Self.reading(half))
        #expect(start == [.report(.capturing(sink: "speakers", original: Self.reading(half).level, held: Self.reading(half).level))],
                "in range: held where it is, nothing sent")
        let up = machine.observe(Self.reading(half + Self.step))
        #expect(up == [.report(.pressed(.up, sink: "speakers")), .setVolume(sink: "speakers", ChannelVolumes([half, half]))])
        Self.answer(up, &machine)
        #expect(machine.observe(Self.reading(half)).isEmpty, "the echo of the restore")
        let down = machine.observe(Self.reading(half - Self.step))
        #expect(Self.presses(down) == [.down])
    }

    @Test("the echo read before the restore is answered is still no press")
    func echoBeforeAnswer() {
        var machine = VolumeCaptureMachine()
        let half = Self.normal / 2
        _ = machine.start(Self.reading(half))
        _ = machine.observe(Self.reading(half + Self.step))  // not answered yet
        #expect(machine.observe(Self.reading(half)).isEmpty)
    }

    @Test("several quick presses each count: read one by one, or merged into one reading")
    func quickPresses() {
        var machine = VolumeCaptureMachine()
        let half = Self.normal / 2
        _ = machine.start(Self.reading(half))
        // Two presses the server applied before the restore could: read one by one.
        #expect(Self.presses(machine.observe(Self.reading(half + Self.step))) == [.up])
        let second = machine.observe(Self.reading(half + 2 * Self.step))
        #expect(Self.presses(second) == [.up])
        Self.answer(second, &machine)
        #expect(machine.observe(Self.reading(half)).isEmpty)
        // Three presses down, read at once: three presses.
        let merged = machine.observe(Self.reading(half - 3 * Self.step))
        #expect(Self.presses(merged) == [.down, .down, .down])
        Self.answer(merged, &machine)
        // After the answer, a press that lands back where the last reading was is seen
        // against the held level, not the stale reading.
        #expect(Self.presses(machine.observe(Self.reading(half - 3 * Self.step))) == [.down, .down, .down])
    }

    @Test("at 100 % and at 0 %: held one step inside, so presses still change the volume")
    func edges() {
        var top = VolumeCaptureMachine()
        let full = Self.reading(Self.normal)
        let held = ChannelVolumes([Self.normal - Self.step, Self.normal - Self.step])
        let start = top.start(full)
        #expect(start == [.setVolume(sink: "speakers", held),
                          .report(.capturing(sink: "speakers", original: full.level, held: SinkLevel(volume: held, isMuted: false)))])
        Self.answer(start, &top)
        #expect(top.observe(Self.reading(held.values[0])).isEmpty, "the echo of holding")
        #expect(Self.presses(top.observe(Self.reading(Self.normal))) == [.up], "a key clamping at 100 %")
        #expect(top.stop().first == .setVolume(sink: "speakers", ChannelVolumes([Self.normal, Self.normal])))

        var bottom = VolumeCaptureMachine()
        let answered = bottom.start(Self.reading(0))
        #expect(answered.first == .setVolume(sink: "speakers", ChannelVolumes([Self.step, Self.step])))
        Self.answer(answered, &bottom)
        #expect(Self.presses(bottom.observe(Self.reading(0))) == [.down], "a key clamping at 0 %")
        let stop = bottom.stop()
        #expect(stop == [.setVolume(sink: "speakers", ChannelVolumes([0, 0])),
                         .report(.released(sink: "speakers", restored: Self.reading(0).level))])
    }

    @Test("balance is kept when held inside the range; presses are read from the loudest channel")
    func channels() {
        var machine = VolumeCaptureMachine()
        let start = machine.start(Self.reading(Self.normal, Self.normal / 2))
        #expect(start.first == .setVolume(sink: "speakers", ChannelVolumes([Self.normal - Self.step, (Self.normal - Self.step) / 2])))
        Self.answer(start, &machine)
        let louder = machine.observe(Self.reading(Self.normal, (Self.normal - Self.step) / 2 + Self.step))
        #expect(Self.presses(louder) == [.up])
    }

    @Test("mute toggles are presses of their own; a raise that unmutes is the raise alone")
    func mute() {
        var machine = VolumeCaptureMachine()
        let half = Self.normal / 2
        _ = machine.start(Self.reading(half))
        let toggled = machine.observe(Self.reading(half, muted: true))
        #expect(toggled == [.report(.pressed(.mute, sink: "speakers")), .setMute(sink: "speakers", false)])
        Self.answer(toggled, &machine)
        #expect(machine.observe(Self.reading(half)).isEmpty, "the echo of the unmute")

        var muted = VolumeCaptureMachine()
        _ = muted.start(Self.reading(half, muted: true))
        let raised = muted.observe(Self.reading(half + Self.step, muted: false))
        #expect(Self.presses(raised) == [.up])
        #expect(raised.contains(.setMute(sink: "speakers", true)))
    }

    @Test("the default moves while capturing: the old sink gets the user's level back, the new one is held")
    func defaultMoves() {
        var machine = VolumeCaptureMachine()
        let start = machine.start(Self.reading(Self.normal))
        Self.answer(start, &machine)
        let moved = machine.observe(Self.reading(0, muted: true, on: "headset"))
        #expect(moved == [
            .setVolume(sink: "speakers", ChannelVolumes([Self.normal, Self.normal])),
            .report(.released(sink: "speakers", restored: Self.reading(Self.normal).level)),
            .setVolume(sink: "headset", ChannelVolumes([Self.step, Self.step])),
            .report(.capturing(sink: "headset", original: Self.reading(0, muted: true, on: "headset").level,
                               held: SinkLevel(volume: ChannelVolumes([Self.step, Self.step]), isMuted: true))),
        ])
        Self.answer(moved, &machine)
        #expect(machine.hold?.sink == "headset")
        #expect(Self.presses(machine.observe(Self.reading(0, muted: true, on: "headset"))) == [.down])
        // No default at all: the held sink is let go, capture waits for the next.
        let gone = machine.observe(nil)
        #expect(gone.last == .report(.waitingForSink))
        #expect(gone.contains(.setVolume(sink: "headset", ChannelVolumes([0, 0]))))
        #expect(machine.isCapturing && machine.hold == nil)
        let back = machine.observe(Self.reading(Self.normal / 2))
        #expect(back == [.report(.capturing(sink: "speakers", original: Self.reading(Self.normal / 2).level,
                                           held: Self.reading(Self.normal / 2).level))])
    }

    @Test("stop puts back exactly what the user had, muted or not; off, nothing is observed")
    func stop() {
        var machine = VolumeCaptureMachine()
        let original = Self.reading(Self.normal, Self.normal - 7, muted: true)
        Self.answer(machine.start(original), &machine)
        let pressed = machine.observe(Self.reading(Self.normal - Self.step, muted: false))
        Self.answer(pressed, &machine)
        let stop = machine.stop()
        #expect(stop == [.setVolume(sink: "speakers", original.level.volume),
                         .report(.released(sink: "speakers", restored: original.level))])
        #expect(!machine.isCapturing)
        #expect(machine.observe(Self.reading(0)).isEmpty)
        #expect(machine.stop().isEmpty)
    }
}
