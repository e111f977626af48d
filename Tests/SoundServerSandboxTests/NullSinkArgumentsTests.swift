@testable import SoundServerSandbox
import Testing

/// Quoting of `module-null-sink` arguments, without a server.
@Suite struct NullSinkArgumentsTests {
    @Test func quotesThePropertyListOnceAndEachValueOnceInKeyOrder() throws {
        let arguments = try NullSinkArguments.make(name: "bt", properties: [
            "device.description": "BT Headset",
            "device.bus": "bluetooth",
        ])
        #expect(arguments == [
            "module-null-sink",
            "sink_name=bt",
            "sink_properties=\"device.bus='bluetooth' device.description='BT Headset'\"",
        ])
    }

    @Test func aSinkWithoutPropertiesHasNoPropertyArgument() throws {
        #expect(try NullSinkArguments.make(name: "plain", properties: [:]) == ["module-null-sink", "sink_name=plain"])
    }

    @Test(arguments: ["it's", "say \"hi\"", "back\\slash", "two\nlines"])
    func rejectsValuesThatTheServersWouldParseDifferently(value: String) {
        #expect(throws: SandboxError.self) {
            try NullSinkArguments.make(name: "sink", properties: ["device.description": value])
        }
    }

    @Test(arguments: ["", "two words", "quote'd"])
    func rejectsBadSinkNames(name: String) {
        #expect(throws: SandboxError.self) { try NullSinkArguments.make(name: name, properties: [:]) }
    }

    @Test(arguments: ["", "device description", "key=value", "ключ"])
    func rejectsBadKeys(key: String) {
        #expect(throws: SandboxError.self) { try NullSinkArguments.make(name: "sink", properties: [key: "x"]) }
    }

    @Test func aMicrophoneOnPulseAudioReadsAFIFOWithItsOwnMediaName() throws {
        let arguments = try NullSinkArguments.makeMicrophone(
            name: "bt_mic", file: "/tmp/sandbox/bt_mic.fifo", properties: ["device.bus": "bluetooth"], on: .pulseaudio)
        #expect(arguments == [
            "module-pipe-source",
            "source_name=bt_mic",
            "file=/tmp/sandbox/bt_mic.fifo",
            "source_properties=\"device.bus='bluetooth' media.name='bt_mic'\"",
        ])
    }

    @Test func aMicrophoneOnPipeWireIsAVirtualSourceNodeWithoutAFIFO() throws {
        let arguments = try NullSinkArguments.makeMicrophone(
            name: "bt_mic", file: "/tmp/sandbox/bt_mic.fifo", properties: ["device.bus": "bluetooth"], on: .pipewire)
        #expect(arguments == [
            "module-null-sink",
            "media.class=Audio/Source/Virtual",
            "sink_name=bt_mic",
            "sink_properties=\"device.bus='bluetooth' media.name='bt_mic' priority.session='50000'\"",
        ])
    }

    @Test func aMicrophonesOwnPriorityWins() throws {
        let arguments = try NullSinkArguments.makeMicrophone(
            name: "mic", file: "/tmp/f", properties: ["priority.session": "10"], on: .pipewire)
        #expect(arguments.last == "sink_properties=\"media.name='mic' priority.session='10'\"")
    }

    @Test func aMicrophoneModuleIsOneArgumentStringWithTheCommonProperties() throws {
        let module = try VirtualMicrophone.module(on: .pipewire, name: "mic", properties: ["device.form_factor": "internal"],
                                                  directory: "/tmp/sandbox")
        #expect(module.name == "module-null-sink")
        #expect(module.arguments == "media.class=Audio/Source/Virtual sink_name=mic "
            + "sink_properties=\"device.form_factor='internal' media.name='mic' node.always-process='true' priority.session='50000'\"")
        #expect(VirtualMicrophone.fifoPath(name: "mic", directory: "/tmp/sandbox") == "/tmp/sandbox/mic.fifo")
    }

    @Test(arguments: SoundServerKind.allCases)
    func aMicrophoneNameIsCheckedLikeASinkName(kind: SoundServerKind) {
        #expect(throws: SandboxError.self) {
            try NullSinkArguments.makeMicrophone(name: "two words", file: "/tmp/f", properties: [:], on: kind)
        }
    }
}
