import PulseAudio
import RouteKit
import Testing

/// Devices built from real machines' dumps: pairing and profiles as a person expects them.
@Suite("Devices from real dumps")
struct DumpDeviceModelTests {
    private func devices(_ prefix: String) throws -> [AudioDevice] {
        let name = try #require(CorpusFile.names().first { $0.hasPrefix(prefix) })
        let dump = try ServerDump.parse(try CorpusFile.load(name).dump)
        return DeviceModel.devices(in: dump)
    }

    @Test("a USB headset's output goes with its own microphone, a laptop's speakers with the built-in one")
    func cardlessPairing() throws {
        let devices = try devices("18_")
        #expect(devices.count == 2, "\(devices.map(\.description))")
        let headset = try #require(devices.first { $0.kind == .wiredHeadset })
        #expect(headset.output?.deviceName?.contains("Corsair") == true)
        #expect(headset.input?.deviceName?.contains("Corsair") == true)
        let laptop = try #require(devices.first { $0.kind == .speakerphone })
        #expect(laptop.input?.port == "analog-input-internal-mic")
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
}
