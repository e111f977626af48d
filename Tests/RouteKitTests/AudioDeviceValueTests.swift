import PulseAudio
import RouteKit
import Testing

/// `AudioDevice` keeps its values behind one shared reference: it must still behave as a value.
@Suite("AudioDevice as a value")
struct AudioDeviceValueTests {
    private let headset = AudioDevice(
        id: "bluez_card.00_1B/headset-output", kind: .bluetooth, description: "Headset", bus: "bluetooth",
        formFactor: "headset", availability: .available, isActive: false, card: "bluez_card.00_1B",
        output: .init(deviceName: "bluez_output.00_1B", port: "headset-output", profile: "a2dp-sink", description: "Headset"),
        input: nil, requiredProfile: nil, callProfile: "headset-head-unit")

    @Test("changing a copy leaves the original as it was")
    func copyOnWrite() {
        var copy = headset
        copy.isActive = true
        copy.output?.port = "other"
        copy.description = "Renamed"
        #expect(!headset.isActive)
        #expect(headset.output?.port == "headset-output")
        #expect(headset.description == "Headset")
        #expect(copy.isActive && copy.output?.port == "other" && copy.description == "Renamed")
        #expect(copy != headset)
    }

    @Test("devices built apart with the same values are equal and hash alike; one value apart, they differ")
    func equality() {
        let twin = AudioDevice(
            id: headset.id, kind: headset.kind, description: headset.description, bus: headset.bus,
            formFactor: headset.formFactor, availability: headset.availability, isActive: headset.isActive,
            card: headset.card, output: headset.output, input: headset.input, requiredProfile: headset.requiredProfile,
            callProfile: headset.callProfile)
        #expect(twin == headset)
        #expect(Set([twin, headset]).count == 1)
        var other = twin
        other.callProfile = nil
        #expect(other != headset)
        #expect(Set([other, headset]).count == 2)
    }
}
