import DumpReader
import PulseAudio
import RouteKit
import Testing

/// Devices built from real machines' dumps: pairing and profiles as a person expects them.
@Suite("Devices from real dumps")
struct DumpDeviceModelTests {
    private func devices(_ prefix: String) throws -> [AudioDevice] {
        let name = try #require(CorpusFile.names().first { $0.hasPrefix(prefix) })
        let dump = try ServerDump.parse(try CorpusFile.load(name).dump)
        return dump.devices
    }

    @Test("a USB headset's output goes with its own microphone, a laptop's speakers with the built-in one, its headphones with the jack's")
    func cardlessPairing() throws {
        let devices = try devices("18_")
        #expect(devices.count == 3, "\(devices.map(\.description))")
        let headset = try #require(devices.first { $0.kind == .wiredHeadset && $0.output?.deviceName?.contains("Corsair") == true })
        #expect(headset.input?.deviceName?.contains("Corsair") == true)
        let laptop = try #require(devices.first { $0.kind == .speakerphone })
        #expect(laptop.input?.port == "analog-input-internal-mic")
        let headphones = try #require(devices.first { $0.output?.port == "analog-output-headphones" })
        #expect(headphones.kind == .wiredHeadset)
        #expect(headphones.input?.port == "analog-input-mic")
    }

    @Test("a Bluetooth card in A2DP offers its microphone through the headset profile")
    func bluetoothCard() throws {
        let devices = try devices("07_")
        let earbuds = try #require(devices.first { $0.kind == .bluetooth })
        #expect(earbuds.output?.port == "headset-output")
        #expect(earbuds.input?.port == "headset-input")
        #expect(earbuds.input?.profile == "handsfree_head_unit")
        #expect(devices.count == 1)
    }

    @Test("HDMI ports whose profile is not active are listed, with the profile they need")
    func inactiveProfiles() throws {
        let devices = try devices("14_")
        let hdmi = devices.filter { $0.kind == .external }
        #expect(hdmi.count >= 3)
        #expect(hdmi.allSatisfy { $0.output?.profile != nil })
        #expect(devices.contains { $0.kind == .wiredHeadset })
        #expect(devices.contains { $0.kind == .speakerphone })
    }

    @Test("a sink pasted without its Card line is its card's ports, not a device beside them")
    func sinkWithoutCardLine() throws {
        for prefix in ["01_", "02_"] {
            let devices = try devices(prefix)
            #expect(devices.filter { $0.card == nil && $0.output != nil }.isEmpty, "\(prefix): \(devices.map(\.id))")
        }
    }

    @Test("PulseAudio 0.9's path;option ports are each a device of their sink")
    func compoundPorts() throws {
        let devices = try devices("11_")
        let speakerphone = devices.filter { $0.output?.deviceName?.contains("EasyCall") == true }
        #expect(speakerphone.count == 4)
        #expect(speakerphone.allSatisfy { $0.kind == .speakerphone })
    }
}
