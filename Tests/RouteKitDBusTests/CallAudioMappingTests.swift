import DBus
import RouteKit
import RouteKitDBus
import Testing

/// callaudiod's calls and properties mapped onto the engine, as libcallaudio's clients expect them.
@Suite("CallAudio mapping")
struct CallAudioMappingTests {
    @Test("the three methods decode with callaudiod's signatures")
    func decode() throws {
        #expect(try CallAudioRequest.decode(member: "SelectMode", arguments: [.uint32(1)]) == .selectMode(1))
        #expect(try CallAudioRequest.decode(member: "EnableSpeaker", arguments: [.boolean(false)]) == .enableSpeaker(false))
        #expect(try CallAudioRequest.decode(member: "MuteMic", arguments: [.boolean(true)]) == .muteMicrophone(true))
        let error = #expect(throws: BusError.self) { try CallAudioRequest.decode(member: "SelectMode", arguments: [.boolean(true)]) }
        #expect(error?.name == BusError.invalidArgumentsName)
    }

    @Test("the properties are libcallaudio's enums: mode 0/1, speaker and mic 0 off / 1 on / 255 unknown")
    func properties() {
        #expect(CallAudioProperties.all(Devices.state(route: Devices.speaker, call: true), microphoneMuted: false)
                == ["AudioMode": .uint32(1), "SpeakerState": .uint32(1), "MicState": .uint32(1)])
        #expect(CallAudioProperties.all(Devices.state(route: Devices.headset), microphoneMuted: true)
                == ["AudioMode": .uint32(0), "SpeakerState": .uint32(0), "MicState": .uint32(0)])
        #expect(CallAudioProperties.all(Devices.state(route: Devices.speaker, connection: Devices.reconnecting), microphoneMuted: nil)
                == ["AudioMode": .uint32(255), "SpeakerState": .uint32(255), "MicState": .uint32(255)])
        // Media on the speaker outside a call: callaudiod's speaker is off until forced on.
        #expect(CallAudioProperties.all(Devices.state(route: Devices.speaker), microphoneMuted: false)
                == ["AudioMode": .uint32(0), "SpeakerState": .uint32(0), "MicState": .uint32(1)])
    }
}
