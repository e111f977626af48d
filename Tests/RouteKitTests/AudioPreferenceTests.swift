import RouteKit
import Testing

@Suite("AudioPreference: reading what people type")
struct AudioPreferenceTests {
    @Test("a kind misspelled by up to two letters is recognised, whatever the case and separators",
          arguments: [("bluetoth", AudioDeviceKind.bluetooth), ("Blutooth", .bluetooth), ("wired-hedset", .wiredHeadset),
                      ("speakerfone", .speakerphone), ("earpeice", .earpiece)])
    func misspelled(_ text: String, _ kind: AudioDeviceKind) {
        #expect(AudioPreference.misspelledKind(text) == kind)
    }

    @Test("kinds spelled right, device ids and far-off words are not misspellings",
          arguments: ["bluetooth", "wiredHeadset", "wired-headset", "virtual", "external", "bt_headset",
                      "alsa_card.pci-0000_00_1f.3/analog-output-speaker", "bluez_card.00_1B_66_AA_BB_CC/headset-output",
                      "handset", "usb_headset"])
    func notMisspelled(_ text: String) {
        #expect(AudioPreference.misspelledKind(text) == nil)
    }
}
