import Testing
@testable import RouteKit

/// What stop() does with each stream the manager moved: back where it was, unless it ended,
/// became another stream, or someone moved it elsewhere.
@Suite("A moved stream at stop: put back or left")
struct MovedStreamRestoreTests {
    static let entry = RestorationLedger.MovedStream(name: "phone", client: 7, original: "builtin", movedTo: "bt_headset")
    static let present: Set<String> = ["builtin", "bt_headset", "hdmi"]

    private func reason(_ shown: (name: String, client: UInt32?, device: String?)?, original: String? = "builtin",
                        present: Set<String> = present) -> String? {
        Self.entry.reasonToLeave(shown: shown, original: original, present: present)
    }

    @Test("still where the manager put it: moved back")
    func whereItWasPut() {
        #expect(reason(("phone", 7, "bt_headset")) == nil)
    }

    /// pipewire-pulse shows a moved stream on its new sink, to the client that moved it, for
    /// one second, then on its old one until WirePlumber relinks it; WirePlumber then takes it
    /// where it was moved. Left alone, it ended on the headset for good after stop().
    @Test("shown where it was (a move pipewire-pulse still shows on the old sink): moved back all the same")
    func shownWhereItWas() {
        #expect(reason(("phone", 7, "builtin")) == nil)
    }

    @Test("moved by someone to a third device, ended, or another stream under its index: left")
    func left() {
        #expect(reason(("phone", 7, "hdmi")) == "moved since (on hdmi)")
        #expect(reason(("phone", 7, nil)) == "moved since (on no device)")
        #expect(reason(nil) == "gone")
        #expect(reason(("music", 7, "bt_headset")) == "another stream now (music, client 7)")
        #expect(reason(("phone", 8, "bt_headset")) == "another stream now (phone, client 8)")
    }

    @Test("no origin, an origin gone, or moved to where it was: left")
    func nowhereToGo() {
        #expect(reason(("phone", 7, "bt_headset"), original: nil) == "no origin and no default")
        #expect(reason(("phone", 7, "bt_headset"), present: ["bt_headset"]) == "its origin builtin gone")
        #expect(reason(("phone", 7, "bt_headset"), original: "bt_headset") == "already where it was")
    }
}
