import DBus
import RouteKit
import RouteKitDBus
import Testing

/// callaudiod's calls and properties mapped onto the engine, as libcallaudio's clients expect them.
@Suite("CallAudio mapping")
struct CallAudioMappingTests {
    @Test("SelectMode 1 is call audio on, 0 off; another mode is InvalidArgs, as callaudiod answers")
    func modes() throws {
        let state = Devices.state(route: Devices.headset)
        #expect(try CallAudioRequest.decode(member: "SelectMode", arguments: [.uint32(1)]) == .selectMode(1))
        #expect(try CallAudioRequest.selectMode(1).operation(devices: Devices.all, state: state) == .callAudio(true))
        #expect(try CallAudioRequest.selectMode(0).operation(devices: Devices.all, state: state) == .callAudio(false))
        let error = #expect(throws: BusError.self) {
            try CallAudioRequest.selectMode(255).operation(devices: Devices.all, state: state)
        }
        #expect(error?.name == BusError.invalidArgumentsName)
        #expect(error?.message == "Invalid mode 255: 0 (default) or 1 (voice call)")
    }

    @Test("EnableSpeaker is the engine's call-time speaker toggle, whatever was chosen by hand")
    func speaker() throws {
        let chosen = Devices.state(route: Devices.speaker, selection: "speaker")
        #expect(try CallAudioRequest.enableSpeaker(true).operation(devices: Devices.all, state: chosen) == .speaker(.on))
        #expect(try CallAudioRequest.enableSpeaker(false).operation(devices: Devices.all, state: chosen) == .speaker(.off))
        let onHeadset = Devices.state(route: Devices.headset)
        #expect(try CallAudioRequest.enableSpeaker(false).operation(devices: Devices.all, state: onHeadset) == .speaker(.off))
    }

    @Test("MuteMic(true) mutes the microphone")
    func mute() throws {
        #expect(try CallAudioRequest.decode(member: "MuteMic", arguments: [.boolean(true)]) == .muteMicrophone(true))
        #expect(try CallAudioRequest.muteMicrophone(true).operation(devices: [], state: AudioRouteState()) == .muteMicrophone(true))
    }

    @Test("the properties are libcallaudio's enums: mode 0/1, speaker and mic 0 off / 1 on / 255 unknown")
    func properties() {
        #expect(CallAudioProperties.all(Devices.state(route: Devices.speaker, call: true), microphoneMuted: false)
                == ["AudioMode": .uint32(1), "SpeakerState": .uint32(1), "MicState": .uint32(1)])
        #expect(CallAudioProperties.all(Devices.state(route: Devices.headset), microphoneMuted: true)
                == ["AudioMode": .uint32(0), "SpeakerState": .uint32(0), "MicState": .uint32(0)])
        #expect(CallAudioProperties.all(Devices.state(route: Devices.speaker, connection: Devices.reconnecting), microphoneMuted: nil)
                == ["AudioMode": .uint32(0), "SpeakerState": .uint32(255), "MicState": .uint32(255)])
    }
}
