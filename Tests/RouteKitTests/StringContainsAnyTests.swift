import RouteKit
import Testing

/// The classifier's substring search, against the standard library's on the same inputs.
@Suite("String.containsAny")
struct StringContainsAnyTests {
    @Test("finds a needle at the start, in the middle and at the end, and nothing else",
          arguments: ["module-null-sink.c", "alsa_output.pci-0000_00_1f.3.hdmi-stereo", "null", "", "nul",
                      "bluez_output.00_1b_66.a2dp-sink", "ñull-sink é", "snull", "module-remap-sink.c", "x"])
    func agreesWithTheStandardLibrary(haystack: String) {
        let needles: [(StaticString, String)] = [("null", "null"), ("module-remap", "module-remap"), ("hdmi", "hdmi"),
                                                 ("sink", "sink"), (".c", ".c"), ("é", "é"), ("x", "x")]
        for (needle, same) in needles {
            #expect(haystack.containsAny(needle) == haystack.contains(same), "\(haystack) ∋ \(same)")
        }
    }

    @Test("any of several: true when one matches, false when none does")
    func several() {
        #expect("alsa_output.usb-headset".containsAny("hdmi", "headset"))
        #expect(!"alsa_output.usb-headset".containsAny("hdmi", "speaker", "headsets"))
        #expect(!"".containsAny("a"))
        #expect("abc".containsAny(""))
    }
}
