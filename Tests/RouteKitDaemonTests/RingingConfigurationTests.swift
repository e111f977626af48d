import MediaControl
@testable import RouteKitDaemon
import RouteKit
import Testing

/// `[calls]`'s ringing keys: read, refused with what was meant, and applied by a reload.
@Suite("Ringing configuration")
struct RingingConfigurationTests {
    func parse(_ text: String) throws(ConfigurationError) -> DaemonConfiguration {
        try ConfigurationFile.parse(text, path: "routekit.toml")
    }

    @Test func theDefaultRingsOnBothWithTheEventRole() throws {
        let settings = try parse("").ringing
        #expect(settings.placement == .both)
        #expect(settings.roles == ["event"])
        #expect(settings.applications.isEmpty)
        #expect(settings.privateKinds == MediaSettings().privateKinds)
    }

    @Test func theRingingKeysAreRead() throws {
        let configuration = try parse("""
            [media]
            private-kinds = ["bluetooth"]
            [calls]
            ringing = "speaker"
            ring-roles = ["event", "notification"]
            ring-applications = ["gnome-calls"]
            """)
        #expect(configuration.ringing == RingingSettings(placement: .speaker, roles: ["event", "notification"],
                                                         applications: ["gnome-calls"], privateKinds: [.bluetooth]))
        #expect(configuration.summary.contains("ringing on the speaker"))
    }

    @Test func aMisspelledPlacementIsRefusedWithWhatWasMeant() throws {
        do throws(ConfigurationError) {
            _ = try parse("[calls]\nringing = \"speeker\"\n")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.key == "calls.ringing")
            #expect(error.message == #""speeker" is not a ringing placement; did you mean "speaker"? write "headset", "speaker", "both""#)
        }
        #expect(throws: ConfigurationError.self) { try parse("[calls]\nringing = true\n") }
        #expect(throws: ConfigurationError.self) { try parse("[calls]\nring-roles = \"event\"\n") }
    }

    @Test func aReloadHandsRingingItsNewSettings() throws {
        let running = DaemonConfiguration()
        let loaded = try parse("[calls]\nringing = \"headset\"\n")
        #expect(ReloadPlan.steps(from: running, to: loaded) == [.ringing(loaded.ringing)])
    }
}
