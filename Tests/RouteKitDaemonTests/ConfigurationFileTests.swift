import Foundation
import MediaControl
import PulseAudio
@testable import RouteKitDaemon
import RouteKit
import Testing

/// The daemon's configuration file, read without a server: every key, and every refusal naming
/// its line and key.
@Suite("Configuration file")
struct ConfigurationFileTests {
    func parse(_ text: String) throws(ConfigurationError) -> DaemonConfiguration {
        try ConfigurationFile.parse(text, path: "routekit.toml")
    }

    /// The error `text` is refused with.
    func refusal(_ text: String) throws -> ConfigurationError {
        let configuration: DaemonConfiguration
        do throws(ConfigurationError) {
            configuration = try parse(text)
        } catch {
            return error
        }
        Issue.record("accepted: \(configuration)")
        throw Accepted()
    }

    struct Accepted: Error {}

    @Test func anEmptyFileKeepsTheDefaults() throws {
        #expect(try parse("") == DaemonConfiguration())
        #expect(try parse("# nothing but a comment\n\n") == DaemonConfiguration())
    }

    @Test func theShippedDefaultFileIsValidAndSaysWhatItDoes() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Configs/routekit.toml")
        let configuration = try ConfigurationFile.parse(try String(contentsOf: url, encoding: .utf8), path: url.path)
        #expect(configuration.preferences == [.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)])
        #expect(configuration.scope == .system)
        #expect(configuration.automatic == AutomaticChoice())
        #expect(configuration.media == MediaSettings())
        #expect(configuration.calls == CallSettings(), "the shipped [calls] says what the defaults are")
    }

    @Test func theCallsTableIsReadAndItsMistakesNamed() throws {
        let configuration = try parse("""
            [calls]
            preferences = ["wiredHeadset", "speakerphone"]
            detect = false
            detect-roles = ["phone"]
            detect-applications = ["linphone"]
            """)
        #expect(configuration.calls.preferences == PreferenceList([.kind(.wiredHeadset), .kind(.speakerphone)]))
        #expect(!configuration.calls.detects)
        #expect(configuration.calls.detection.roles == ["phone"])
        #expect(configuration.calls.detection.applicationNames == ["linphone"])
        #expect(throws: ConfigurationError.self) { try parse("[calls]\ndetect = \"yes\"\n") }
        #expect(throws: ConfigurationError.self) { try parse("[calls]\npreferences = [\"bluetoth\"]\n") }
        #expect(throws: ConfigurationError.self) { try parse("[calls]\nringtone = true\n") }
    }

    @Test func theMediaTableIsReadAndItsMistakesNamed() throws {
        let configuration = try parse("""
            [media]
            pause-on-unplug = false
            private-kinds = ["bluetooth"]
            resume-within = "90s"
            hold-during-calls = false
            """)
        #expect(configuration.media == MediaSettings(pausesOnUnplug: false, privateKinds: [.bluetooth], resumeWindow: .seconds(90),
                                                     holdsMediaDuringCalls: false))
        #expect(try refusal("[media]\nprivate-kinds = [\"bluetoth\"]").description
                == #"routekit.toml:2: media.private-kinds: "bluetoth" is not a kind; did you mean "bluetooth"? the kinds are bluetooth, wiredHeadset, speakerphone, earpiece, external, virtual"#)
        #expect(try refusal("[media]\npause-on-unplug = \"yes\"").description
                == "routekit.toml:2: media.pause-on-unplug: must be true or false; found text")
        let unknown = try refusal("[media]\nresume-after = \"1s\"").description
        #expect(unknown.hasPrefix("routekit.toml:2: media.resume-after: unknown key in [media]"), "\(unknown)")
        #expect(try refusal("[media]\nresume-within = 30").description
                == #"routekit.toml:2: media.resume-within: write the duration with its unit, such as "2s" or "500ms""#)
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try parse("""
            preferences = ["bluetooth", "alsa_card.usb-Jabra/analog-output", "speakerphone"]
            scope = "application"

            [match]
            "media.role" = "phone"
            application.name = "Linphone"
            "application.process.id" = 1234

            [automatic]
            never = ["bluez_card.00_11_22_33_44_55"]
            only = ["bluez_card.00_1B_66_AA_BB_CC", "speaker"]
            hold-off = "1.5s"
            """)
        #expect(configuration.preferences == [.kind(.bluetooth), .device("alsa_card.usb-Jabra/analog-output"), .kind(.speakerphone)])
        #expect(configuration.scope == .application(StreamSelector(properties: [
            "media.role": "phone", "application.name": "Linphone", "application.process.id": "1234"])))
        #expect(configuration.automatic == AutomaticChoice(never: ["bluez_card.00_11_22_33_44_55"],
                                                           only: ["bluez_card.00_1B_66_AA_BB_CC", "speaker"],
                                                           holdOff: .milliseconds(1500)))
    }

    @Test func matchAloneMeansApplicationScope() throws {
        let configuration = try parse("[match]\n\"media.role\" = \"phone\"\n")
        #expect(configuration.scope == .application(.role("phone")))
    }

    @Test func anUnknownKeyIsNamedWithItsLineAndTheKeysThereAre() throws {
        let error = try refusal("""
            preferences = ["bluetooth"]

            prefrences = ["speakerphone"]
            """)
        #expect(error.line == 3)
        #expect(error.key == "prefrences")
        #expect(error.message.contains("did you mean preferences?"), "\(error)")
        #expect(error.description.hasPrefix("routekit.toml:3: prefrences: unknown key"), "\(error)")
    }

    @Test func anUnknownKeyInATableIsNamedWithItsTable() throws {
        let error = try refusal("""
            [automatic]
            never = []
            holdoff = "2s"
            """)
        #expect(error.line == 3)
        #expect(error.key == "automatic.holdoff")
        #expect(error.message.contains("in [automatic]") && error.message.contains("did you mean hold-off?"), "\(error)")
    }

    @Test func aMisspelledKindIsRefusedWithWhatWasMeant() throws {
        let error = try refusal("""
            # preferences, best first
            preferences = [
                "speakerphone",
                "bluetoth",
            ]
            """)
        #expect(error.line == 2)
        #expect(error.key == "preferences")
        #expect(error.message.contains("bluetoth: no such kind; did you mean bluetooth?"), "\(error)")
    }

    @Test func aKindNeverChosenByKindIsRefused() throws {
        let error = try refusal(#"preferences = ["virtual"]"#)
        #expect(error.message.contains("never chosen by kind") && error.message.contains(#""my_null_sink""#), "\(error)")
    }

    @Test func aValueOfTheWrongTypeSaysWhatItShouldBe() throws {
        let list = try refusal(#"preferences = "bluetooth""#)
        #expect(list.line == 1 && list.key == "preferences")
        #expect(list.message.contains("must be a list of strings") && list.message.contains("found text"), "\(list)")

        let entry = try refusal(#"preferences = ["bluetooth", 2]"#)
        #expect(entry.message.contains("found a whole number in it"), "\(entry)")

        let table = try refusal("automatic = 3")
        #expect(table.key == "automatic" && table.message.contains("must be a table"), "\(table)")
    }

    @Test func aHoldOffNeedsItsUnit() throws {
        let bare = try refusal("[automatic]\nhold-off = 2\n")
        #expect(bare.line == 2 && bare.key == "automatic.hold-off")
        #expect(bare.message.contains("with its unit"), "\(bare)")

        let words = try refusal("[automatic]\nhold-off = \"2 seconds\"\n")
        #expect(words.message.contains("is not a duration"), "\(words)")

        let huge = try refusal("[automatic]\nhold-off = \"3600s\"\n")
        #expect(huge.message.contains("is not a duration from \"0s\" to \"600s\""), "\(huge)")
    }

    @Test func aScopeMisspelledGetsASuggestion() throws {
        let error = try refusal(#"scope = "sytem""#)
        #expect(error.line == 1 && error.key == "scope")
        #expect(error.message.contains(#"did you mean "system"?"#), "\(error)")
    }

    @Test func applicationScopeNeedsAMatchAndSystemScopeRefusesOne() throws {
        let bare = try refusal(#"scope = "application""#)
        #expect(bare.key == "scope" && bare.message.contains("needs [match]"), "\(bare)")

        let both = try refusal("scope = \"system\"\n\n[match]\n\"media.role\" = \"phone\"\n")
        #expect(both.line == 3 && both.key == "match")
        #expect(both.message.contains(#"applies to scope = "application" only"#), "\(both)")
    }

    @Test func aSyntaxErrorNamesTheParsersLineAndTheKeyThere() throws {
        let error = try refusal("""
            preferences = ["bluetooth"]
            scope = "system
            """)
        #expect(error.line == 2, "\(error)")
        #expect(error.key == "scope", "\(error)")
    }

    @Test func aKeyGivenTwiceIsRefused() throws {
        let error = try refusal("scope = \"system\"\nscope = \"application\"\n")
        #expect(error.line == 2, "\(error)")
    }

    @Test func aMatchValueMustBeText() throws {
        let error = try refusal("[match]\n\"media.role\" = [\"phone\"]\n")
        #expect(error.line == 2 && error.key == "match.media.role", "\(error)")
    }
}

/// Where keys are written, for error lines.
@Suite("TOML key lines")
struct TOMLKeyLinesTests {
    @Test func keysTablesAndDottedKeysHaveTheirLines() {
        let lines = TOMLKeyLines("""
            # a comment = not a key
            preferences = ["a", "b"]
            automatic.hold-off = "1s"

            [match]
            "media.role" = 'phone'
            application . name = "x"
            [[servers]]
            name = "y"
            """)
        #expect(lines.line(of: ["preferences"]) == 2)
        #expect(lines.line(of: ["automatic", "hold-off"]) == 3)
        #expect(lines.line(of: ["match"]) == 5)
        #expect(lines.line(of: ["match", "media.role"]) == 6)
        #expect(lines.line(of: ["match", "application", "name"]) == 7)
        #expect(lines.line(of: ["servers", "name"]) == 9)
        #expect(lines.line(of: ["match", "unknown"]) == 5, "a key not written falls back to its table")
        #expect(lines.line(of: ["a comment"]) == nil)
        #expect(lines.key(onLine: 3) == "automatic.hold-off")
    }

    @Test func multiLineValuesAreSkipped() {
        let lines = TOMLKeyLines(#"""
            preferences = [
                "bluetooth",  # not = a key
                "speakerphone",
            ]
            text = """
            fake = "not a key"
            """
            scope = "system"
            inline = { a = 1, b = [
                2 ] }
            after = 1
            """#)
        #expect(lines.line(of: ["preferences"]) == 1)
        #expect(lines.line(of: ["fake"]) == nil)
        #expect(lines.line(of: ["scope"]) == 8)
        #expect(lines.line(of: ["after"]) == 11)
    }
}

/// Durations as the file writes them.
@Suite("Duration text")
struct DurationTextTests {
    @Test func numbersWithUnitsAreDurations() {
        #expect(DurationText.parse("0s") == .zero)
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(DurationText.parse(" 2s ") == .seconds(2))
        #expect(DurationText.parse("600s") == .seconds(600))
    }

    @Test func anythingElseIsNot() {
        for text in ["", "2", "s", "2 s", "-1s", "2m", "1e3ms", "601s", "nan s", "0x10s"] {
            #expect(DurationText.parse(text) == nil, "\(text)")
        }
    }

    @Test func durationsAreWrittenBackShort() {
        #expect(DurationText.text(.zero) == "0s")
        #expect(DurationText.text(.milliseconds(250)) == "250ms")
        #expect(DurationText.text(.seconds(2)) == "2s")
        #expect(DurationText.text(.milliseconds(1500)) == "1.5s")
    }
}
