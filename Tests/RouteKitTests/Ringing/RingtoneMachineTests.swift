import MediaControl
import PulseAudio
import RouteKit
import Testing

/// Ringing's decisions without a server: which ring streams move where, and what goes back.
@Suite("Ringtone machine")
struct RingtoneMachineTests {
    static func device(_ name: String, _ kind: AudioDeviceKind) -> AudioDevice {
        AudioDevice(id: AudioDevice.ID(rawValue: name), kind: kind, description: name, bus: nil, formFactor: nil,
                    availability: .available, isActive: false, card: nil,
                    output: AudioDevice.Endpoint(deviceName: name, port: nil, description: name), input: nil, requiredProfile: nil)
    }

    static let headset = device("bt_headset", .bluetooth)
    static let speaker = device("builtin", .speakerphone)
    static let ringing = CallSession(id: "incoming", state: .ringing, origin: .application)
    static let active = CallSession(id: "first", state: .active, origin: .application)
    static let ringtone: [String: String] = ["media.role": "event", "application.name": "ringer"]
    static let music: [String: String] = ["media.role": "music", "application.name": "mpv"]

    /// A machine with a headset route, a speaker, and a ringtone (#12) and music (#13) on the headset.
    static func machine(_ placement: RingingPlacement = .speaker) -> RingtoneMachine {
        var machine = RingtoneMachine(settings: RingingSettings(placement: placement))
        _ = machine.devicesChanged([headset, speaker])
        _ = machine.routeChanged(headset)
        _ = machine.reset(sinks: [(1, "bt_headset"), (2, "builtin")],
                          streams: [(12, 1, ringtone), (13, 1, music)])
        return machine
    }

    @Test("a call ringing with a headset in use: the ringtone moves to the speaker, music stays")
    func ringingMovesToTheSpeaker() {
        var machine = Self.machine()
        let actions = machine.callsChanged([Self.ringing])
        #expect(actions == [.move(stream: 12, toSink: "builtin"),
                            .emit(.moved(stream: 12, name: "ringer", placement: .speaker))])
    }

    @Test("answered: the ringtone goes back to the headset at once")
    func answeredPutsBack() {
        var machine = Self.machine()
        _ = machine.callsChanged([Self.ringing])
        _ = machine.streamSeen(index: 12, sink: 2, properties: Self.ringtone)
        var answered = Self.ringing
        answered.state = .active
        #expect(machine.callsChanged([answered]) == [.move(stream: 12, toSink: "bt_headset"),
                                                     .emit(.putBack(stream: 12, name: "ringer", sink: "bt_headset"))])
        #expect(machine.callsChanged([]) == [])
    }

    @Test("a ring stream that starts while the call rings moves too; one moved by someone meanwhile is left alone")
    func movedMeanwhileIsLeftAlone() {
        var machine = Self.machine()
        _ = machine.callsChanged([Self.ringing])
        #expect(machine.streamSeen(index: 20, sink: 1, properties: Self.ringtone).first == .move(stream: 20, toSink: "builtin"))
        #expect(machine.streamSeen(index: 12, sink: UInt32.max, properties: Self.ringtone) == [], "on no sink while it moves")
        _ = machine.streamSeen(index: 12, sink: 2, properties: Self.ringtone)
        _ = machine.sinkSeen(index: 3, name: "hdmi")
        #expect(machine.streamSeen(index: 12, sink: 3, properties: Self.ringtone) == [.emit(.leftAlone(stream: 12, name: "ringer"))])
        _ = machine.streamSeen(index: 20, sink: 2, properties: Self.ringtone)
        // Ended: only #20 goes back; #12 stays on the HDMI output someone chose.
        #expect(machine.callsChanged([]) == [.move(stream: 20, toSink: "bt_headset"),
                                             .emit(.putBack(stream: 20, name: "ringer", sink: "bt_headset"))])
    }

    /// pipewire-pulse shows a moved stream on its new sink for one second, then on its old
    /// one until the session manager relinks it: under load, the ringtone reads as on the
    /// speaker, then on the headset again, while the move is still under way.
    @Test("a ring stream seen back on its old sink after its move is still put back, and moved once")
    func backOnItsOldSinkIsStillPutBack() {
        var machine = Self.machine()
        _ = machine.callsChanged([Self.ringing])
        #expect(machine.streamSeen(index: 12, sink: 2, properties: Self.ringtone) == [], "arrived")
        #expect(machine.streamSeen(index: 12, sink: 1, properties: Self.ringtone) == [], "not someone else's move, nor moved again")
        #expect(machine.streamSeen(index: 12, sink: 2, properties: Self.ringtone) == [], "relinked")
        #expect(machine.settingsChanged(RingingSettings(placement: .headset))
                == [.move(stream: 12, toSink: "bt_headset"), .emit(.putBack(stream: 12, name: "ringer", sink: "bt_headset"))])

        var answeredEarly = Self.machine()
        _ = answeredEarly.callsChanged([Self.ringing])
        _ = answeredEarly.streamSeen(index: 12, sink: 2, properties: Self.ringtone)
        _ = answeredEarly.streamSeen(index: 12, sink: 1, properties: Self.ringtone)
        #expect(answeredEarly.callsChanged([]) == [.move(stream: 12, toSink: "bt_headset"),
                                                   .emit(.putBack(stream: 12, name: "ringer", sink: "bt_headset"))],
                "shown on its old sink, on its way to the speaker: sent back all the same")
    }

    @Test("silent mode: nothing goes to the speaker; turning it on mid-ringing puts back, off moves again")
    func silentMode() {
        var machine = Self.machine()
        _ = machine.silentModeChanged(true)
        #expect(machine.callsChanged([Self.ringing]) == [.emit(.keptForSilentMode(stream: 12, name: "ringer"))])
        #expect(machine.streamSeen(index: 12, sink: 1, properties: Self.ringtone) == [], "said once")
        #expect(machine.silentModeChanged(false).first == .move(stream: 12, toSink: "builtin"), "audible again while ringing")

        var audible = Self.machine()
        _ = audible.callsChanged([Self.ringing])
        _ = audible.streamSeen(index: 12, sink: 2, properties: Self.ringtone)
        #expect(audible.silentModeChanged(true) == [.move(stream: 12, toSink: "bt_headset"),
                                                    .emit(.putBack(stream: 12, name: "ringer", sink: "bt_headset"))])
    }

    @Test("a second call ringing during an active call moves nothing")
    func secondCallRingsWhereTheCallIs() {
        var machine = Self.machine()
        #expect(machine.callsChanged([Self.active, Self.ringing]) == [])
        var held = Self.active
        held.state = .held
        #expect(machine.callsChanged([held, Self.ringing]) == [])
    }

    @Test("headset: nothing moves; no headset in use: nothing moves")
    func headsetAndNoHeadset() {
        var machine = Self.machine(.headset)
        #expect(machine.callsChanged([Self.ringing]) == [])
        #expect(!machine.followsStreams)

        var onSpeaker = Self.machine()
        _ = onSpeaker.routeChanged(Self.speaker)
        #expect(onSpeaker.callsChanged([Self.ringing]) == [])
    }

    @Test("both: the combined sink is loaded, the ringtone moves once it is there, and all is undone after")
    func bothLoadsACombinedSink() {
        var machine = Self.machine(.both)
        #expect(machine.callsChanged([Self.ringing]) == [.loadCombinedSink(name: RingtoneMachine.combinedSinkName,
                                                                            sinks: ["builtin", "bt_headset"])])
        #expect(machine.combinedSinkLoaded(module: 40) == [])
        #expect(machine.sinkSeen(index: 5, name: RingtoneMachine.combinedSinkName)
                == [.move(stream: 12, toSink: RingtoneMachine.combinedSinkName),
                    .emit(.moved(stream: 12, name: "ringer", placement: .both))])
        _ = machine.streamSeen(index: 12, sink: 5, properties: Self.ringtone)
        #expect(machine.callsChanged([]) == [.move(stream: 12, toSink: "bt_headset"),
                                             .emit(.putBack(stream: 12, name: "ringer", sink: "bt_headset")),
                                             .unloadModule(40)])
    }

    @Test("both, where the combined sink cannot load: rings on the speaker alone")
    func bothFallsBackToTheSpeaker() {
        var machine = Self.machine(.both)
        _ = machine.callsChanged([Self.ringing])
        let actions = machine.combinedSinkFailed("No such entity")
        #expect(actions.contains(.move(stream: 12, toSink: "builtin")))
    }

    @Test("ringing ended before the combined sink loaded: it is unloaded as soon as it is")
    func endedWhileLoading() {
        var machine = Self.machine(.both)
        _ = machine.callsChanged([Self.ringing])
        #expect(machine.callsChanged([]) == [])
        #expect(machine.combinedSinkLoaded(module: 41) == [.unloadModule(41)])
    }

    @Test("application names ring too; streams of other roles do not")
    func applicationNames() {
        let settings = RingingSettings(roles: ["event"], applications: ["gnome-calls"])
        #expect(settings.rings(["application.name": "gnome-calls"]))
        #expect(settings.rings(["application.process.binary": "gnome-calls"]))
        #expect(!settings.rings(["media.role": "music", "application.name": "mpv"]))
    }
}
