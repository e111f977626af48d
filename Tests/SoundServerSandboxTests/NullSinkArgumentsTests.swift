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
}
