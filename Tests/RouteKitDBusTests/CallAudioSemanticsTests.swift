import DBus
import PulseAudio
import RouteKit
import RouteKitDBus
import Testing

/// callaudiod 0.1.7's behaviour, one row per behaviour, each with the source line it comes
/// from (src/cad-manager.c and src/cad-pulse.c at the 0.1.7 release, commit 92cf20a).
@Suite("CallAudio semantics")
struct CallAudioSemanticsTests {
    /// One behaviour: a method on some devices in some state, and what callaudiod gives.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var method: CallAudioMethod
        var devices: CallAudioDevices
        var state: CallAudioState
        var reply: Result<Bool, BusError>
        var intents: [CallAudioIntent]
        var after: CallAudioState
        var testDescription: String { name }
    }

    static let phone = CallAudioDevices(hasSpeaker: true, callOutputs: [.earpiece], hasMicrophone: true)
    static let phoneWithHeadset = CallAudioDevices(hasSpeaker: true, callOutputs: [.wiredHeadset, .earpiece], hasMicrophone: true)
    static let speakerOnly = CallAudioDevices(hasSpeaker: true, callOutputs: [], hasMicrophone: true)
    static let headsetOnly = CallAudioDevices(hasSpeaker: false, callOutputs: [.wiredHeadset], hasMicrophone: true)
    static let nothing = CallAudioDevices(hasSpeaker: false, callOutputs: [], hasMicrophone: false)
    static let noMicrophone = CallAudioDevices(hasSpeaker: true, callOutputs: [.earpiece], hasMicrophone: false)

    static func state(_ mode: CallAudioMode, _ speaker: CallAudioSpeakerState, _ microphone: CallAudioMicState) -> CallAudioState {
        CallAudioState(mode: mode, speaker: speaker, microphone: microphone)
    }

    static let idle = state(.default, .off, .on)
    static let inCall = state(.call, .off, .on)

    static let rows: [Row] = [
        // SelectMode
        // cad-manager.c 59-68: only 0 and 1; the rest is InvalidArgs "Invalid mode %u", nothing done.
        Row(name: "SelectMode(2) is InvalidArgs \"Invalid mode 2\"", method: .selectMode(2), devices: phone, state: idle,
            reply: .failure(.invalidArguments("Invalid mode 2")), intents: [], after: idle),
        // cad-manager.c 63: CALL_AUDIO_MODE_UNKNOWN (255) is refused too.
        Row(name: "SelectMode(255) is InvalidArgs", method: .selectMode(255), devices: phone, state: inCall,
            reply: .failure(.invalidArguments("Invalid mode 255")), intents: [], after: inCall),
        // cad-pulse.c 893-894: call mode takes the best port other than the speaker: the earpiece.
        Row(name: "SelectMode(1) with earpiece and speaker: the earpiece", method: .selectMode(1), devices: phone, state: idle,
            reply: .success(true), intents: [.enterCallMode(output: .earpiece)], after: inCall),
        // cad-pulse.c 887-889: "this makes sure we use the headphones if they are connected".
        Row(name: "SelectMode(1) with a headset plugged: the headset", method: .selectMode(1), devices: phoneWithHeadset,
            state: idle, reply: .success(true), intents: [.enterCallMode(output: .wiredHeadset)], after: inCall),
        // cad-pulse.c 912-923 and 795: already there, nothing to be done, true, no property change.
        Row(name: "SelectMode(1) in call mode: true, nothing", method: .selectMode(1), devices: phone, state: inCall,
            reply: .success(true), intents: [], after: inCall),
        // cad-pulse.c 893-894: SelectMode(1) during a call with the speaker forced on goes back to
        // the earpiece (callaudiod leaves SpeakerState on, 800-805; the model says off).
        Row(name: "SelectMode(1) with the speaker on: back to the earpiece", method: .selectMode(1), devices: phone,
            state: state(.call, .on, .on), reply: .success(true), intents: [.enterCallMode(output: .earpiece)], after: inCall),
        // cad-pulse.c 912: only the speaker (laptop, headphones unplugged): no other port, nothing
        // to be done, true; audio stays on the speaker (the model says SpeakerState on).
        Row(name: "SelectMode(1) with only a speaker: the speaker", method: .selectMode(1), devices: speakerOnly, state: idle,
            reply: .success(true), intents: [.enterCallMode(output: .speakerphone)], after: state(.call, .on, .on)),
        // cad-pulse.c 982-984: no usable sink: false, mode as it was.
        Row(name: "SelectMode(1) with no output: false", method: .selectMode(1), devices: nothing, state: idle,
            reply: .success(false), intents: [], after: idle),
        // cad-pulse.c 952-959 and 1076-1080: mode 0 unmutes a muted microphone, then 965-970 the
        // speaker goes off, then the default routing (896).
        Row(name: "SelectMode(0) after a muted call on the speaker: unmute, leave", method: .selectMode(0), devices: phone,
            state: state(.call, .on, .off), reply: .success(true), intents: [.muteMicrophone(false), .leaveCallMode],
            after: idle),
        // cad-pulse.c 952-959: the unmute happens in default mode too (mic muted outside a call).
        Row(name: "SelectMode(0) in default mode still unmutes", method: .selectMode(0), devices: phone,
            state: state(.default, .off, .off), reply: .success(true), intents: [.muteMicrophone(false)], after: idle),
        // cad-pulse.c 795, 1088-1092: nothing changes: true, no intent.
        Row(name: "SelectMode(0) in default mode: true, nothing", method: .selectMode(0), devices: phone, state: idle,
            reply: .success(true), intents: [], after: idle),
        // cad-pulse.c 959 then 982-984: the unmute runs on its own; with no sink the answer is false.
        Row(name: "SelectMode(0) with no output: false (the unmute is its own operation)", method: .selectMode(0),
            devices: CallAudioDevices(hasSpeaker: false, callOutputs: [], hasMicrophone: true),
            state: state(.call, .off, .off), reply: .success(false), intents: [.muteMicrophone(false)],
            after: state(.call, .off, .on)),
        // cad-pulse.c 1068-1071 inside 959: no source, the unmute fails silently; the mode still changes.
        Row(name: "SelectMode(0) with no microphone: leave, MicState as it was", method: .selectMode(0), devices: noMicrophone,
            state: state(.call, .off, .off), reply: .success(true), intents: [.leaveCallMode],
            after: state(.default, .off, .off)),

        // EnableSpeaker
        // cad-pulse.c 904-905: on is the speaker port.
        Row(name: "EnableSpeaker(true) in a call: the speaker", method: .enableSpeaker(true), devices: phone, state: inCall,
            reply: .success(true), intents: [.speaker(on: true, output: .speakerphone)], after: state(.call, .on, .on)),
        // cad-pulse.c 906-907: off is the best port other than the speaker: the earpiece...
        Row(name: "EnableSpeaker(false): the earpiece", method: .enableSpeaker(false), devices: phone,
            state: state(.call, .on, .on), reply: .success(true), intents: [.speaker(on: false, output: .earpiece)],
            after: inCall),
        // cad-pulse.c 900-902: ...or the headphones when connected.
        Row(name: "EnableSpeaker(false) with a headset: the headset", method: .enableSpeaker(false), devices: phoneWithHeadset,
            state: state(.call, .on, .on), reply: .success(true), intents: [.speaker(on: false, output: .wiredHeadset)],
            after: inCall),
        // cad-pulse.c 912-923, 801: already on the target: true, nothing.
        Row(name: "EnableSpeaker(true) when on: true, nothing", method: .enableSpeaker(true), devices: phone,
            state: state(.call, .on, .on), reply: .success(true), intents: [], after: state(.call, .on, .on)),
        Row(name: "EnableSpeaker(false) when off: true, nothing", method: .enableSpeaker(false), devices: phone, state: inCall,
            reply: .success(true), intents: [], after: inCall),
        // cad-pulse.c 1030-1035: no check of the mode: the speaker is forced on outside a call too.
        Row(name: "EnableSpeaker(true) outside a call: the speaker, SpeakerState on", method: .enableSpeaker(true),
            devices: phone, state: idle, reply: .success(true), intents: [.speaker(on: true, output: .speakerphone)],
            after: state(.default, .on, .on)),
        // cad-pulse.c 906-907: outside a call callaudiod moves the sink off the speaker too (media
        // to the earpiece); SpeakerState is off already, so the model leaves media routing alone.
        Row(name: "EnableSpeaker(false) outside a call, speaker not forced: true, nothing", method: .enableSpeaker(false),
            devices: phone, state: idle, reply: .success(true), intents: [], after: idle),
        // cad-pulse.c 907 and 912-923: nothing but the speaker: no target, true. callaudiod says
        // off (801-803) while audio stays on the speaker; the model keeps it on.
        Row(name: "EnableSpeaker(false) with only a speaker: true, stays on", method: .enableSpeaker(false),
            devices: speakerOnly, state: state(.call, .on, .on), reply: .success(true), intents: [],
            after: state(.call, .on, .on)),
        // cad-pulse.c 1025-1028: no usable sink: false.
        Row(name: "EnableSpeaker(true) with no output: false", method: .enableSpeaker(true), devices: nothing, state: inCall,
            reply: .success(false), intents: [], after: inCall),
        // cad-pulse.c 493-497: callaudiod never runs without a speaker port; the model answers false.
        Row(name: "EnableSpeaker(true) with no speaker: false", method: .enableSpeaker(true), devices: headsetOnly,
            state: inCall, reply: .success(false), intents: [], after: inCall),

        // MuteMic
        // cad-pulse.c 1081-1085: live microphone, mute: the source is muted; 811-815 MicState 0.
        Row(name: "MuteMic(true): muted, MicState off", method: .muteMic(true), devices: phone, state: inCall,
            reply: .success(true), intents: [.muteMicrophone(true)], after: state(.call, .off, .off)),
        // cad-pulse.c 1076-1080: muted, unmute.
        Row(name: "MuteMic(false) when muted: live, MicState on", method: .muteMic(false), devices: phone,
            state: state(.call, .off, .off), reply: .success(true), intents: [.muteMicrophone(false)], after: inCall),
        // cad-pulse.c 1088-1092: what MicState says already: true, nothing.
        Row(name: "MuteMic(true) when muted: true, nothing", method: .muteMic(true), devices: phone,
            state: state(.call, .off, .off), reply: .success(true), intents: [], after: state(.call, .off, .off)),
        // cad-pulse.c 1068-1071: no source: false.
        Row(name: "MuteMic(true) with no microphone: false", method: .muteMic(true), devices: noMicrophone, state: inCall,
            reply: .success(false), intents: [], after: inCall),
        // cad-pulse.c 1051-1092: no check of the mode: muting works outside a call.
        Row(name: "MuteMic(true) outside a call: muted", method: .muteMic(true), devices: phone, state: idle,
            reply: .success(true), intents: [.muteMicrophone(true)], after: state(.default, .off, .off)),
    ]

    @Test("callaudiod's answer, intents and properties", arguments: rows)
    func behaviour(_ row: Row) {
        let outcome = CallAudioSemantics.outcome(of: row.method, devices: row.devices, state: row.state)
        #expect(outcome.reply == row.reply)
        #expect(outcome.intents == row.intents)
        #expect(outcome.state == row.after)
    }

    /// GNOME Calls' sequence, each step's `callaudiocli -S` as a separate run prints it.
    static func gnomeCalls(on devices: CallAudioDevices) -> [(intents: [CallAudioIntent], status: String)] {
        var state = idle
        return [CallAudioMethod.selectMode(1), .enableSpeaker(true), .enableSpeaker(false), .muteMic(true), .selectMode(0)]
            .map { method in
                let outcome = CallAudioSemantics.outcome(of: method, devices: devices, state: state)
                #expect(outcome.reply == .success(true), "\(method)")
                state = outcome.state
                return (outcome.intents, state.cliStatus)
            }
    }

    static func status(_ mode: String, _ speaker: String, _ mic: String) -> String {
        "Selected mode: CALL_AUDIO_MODE_\(mode)\nSpeaker enabled: CALL_AUDIO_SPEAKER_\(speaker)\nMic muted: CALL_AUDIO_MIC_\(mic)\n"
    }

    @Test("GNOME Calls on earpiece and speaker: earpiece, speaker, earpiece, muted, media route and unmuted")
    func gnomeCallsOnPhone() {
        let steps = Self.gnomeCalls(on: Self.phone)
        #expect(steps.map { $0.intents } == [[.enterCallMode(output: .earpiece)], [.speaker(on: true, output: .speakerphone)],
                                         [.speaker(on: false, output: .earpiece)], [.muteMicrophone(true)],
                                         [.muteMicrophone(false), .leaveCallMode]])
        #expect(steps.map { $0.status } == [Self.status("CALL", "OFF", "ON"), Self.status("CALL", "ON", "ON"),
                                        Self.status("CALL", "OFF", "ON"), Self.status("CALL", "OFF", "OFF"),
                                        Self.status("DEFAULT", "OFF", "ON")])
    }

    @Test("GNOME Calls with a wired headset: the headset wherever callaudiod would use the earpiece")
    func gnomeCallsWithHeadset() {
        let steps = Self.gnomeCalls(on: Self.phoneWithHeadset)
        #expect(steps.map { $0.intents } == [[.enterCallMode(output: .wiredHeadset)], [.speaker(on: true, output: .speakerphone)],
                                         [.speaker(on: false, output: .wiredHeadset)], [.muteMicrophone(true)],
                                         [.muteMicrophone(false), .leaveCallMode]])
        #expect(steps.map { $0.status } == Self.gnomeCalls(on: Self.phone).map { $0.status })
    }

    @Test("the properties are the enums' values; unknown is 255; -S prints the enum names")
    func properties() {
        #expect(Self.state(.call, .on, .off).properties
                == ["AudioMode": .uint32(1), "SpeakerState": .uint32(1), "MicState": .uint32(0)])
        #expect(CallAudioState.unknown.properties
                == ["AudioMode": .uint32(255), "SpeakerState": .uint32(255), "MicState": .uint32(255)])
        #expect(CallAudioState.unknown.cliStatus == Self.status("UNKNOWN", "UNKNOWN", "UNKNOWN"))
    }

    @Test("devices: unplugged ones and monitors do not count; call outputs in the call order")
    func devices() {
        func device(_ id: String, _ kind: AudioDeviceKind, _ availability: PortAvailability = .unknown,
                    output: Bool = true, input: Bool = true) -> AudioDevice {
            AudioDevice(id: AudioDevice.ID(rawValue: id), kind: kind, description: id, bus: nil, formFactor: nil,
                        availability: availability, isActive: false, card: nil,
                        output: output ? AudioDevice.Endpoint(deviceName: id, port: nil, description: id) : nil,
                        input: input ? AudioDevice.Endpoint(deviceName: id + "_mic", port: nil, description: id) : nil,
                        requiredProfile: nil)
        }
        let phone = [device("earpiece", .earpiece, input: false), device("speaker", .speakerphone),
                     device("jack", .wiredHeadset, .unavailable), device("bt", .bluetooth, .available)]
        #expect(CallAudioDevices(phone) == CallAudioDevices(hasSpeaker: true, callOutputs: [.bluetooth, .earpiece],
                                                            hasMicrophone: true))
        let monitorOnly = [device("speaker", .speakerphone, input: false), device("null", .virtual)]
        #expect(CallAudioDevices(monitorOnly) == CallAudioDevices(hasSpeaker: true, callOutputs: [], hasMicrophone: false))
        let usbMicrophone = [device("desk", .external, .available, output: false)]
        #expect(CallAudioDevices(usbMicrophone) == CallAudioDevices(hasSpeaker: false, callOutputs: [], hasMicrophone: true))
    }
}
