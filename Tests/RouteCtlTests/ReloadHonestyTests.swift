import Foundation
import MediaControl
import PulseAudio
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import Testing

/// A SIGHUP reload that changes any key either applies it or says it waits for a restart:
/// never "reloaded" with a setting that cannot work, such as media pausing turned on in a
/// daemon whose server connection does not hear about streams.
@Suite("routectl daemon's reload is honest")
struct ReloadHonestyTests {
    /// A file that follows no stream: the connection subscribes to devices and defaults only.
    static let quiet = """
        preferences = ["bluetooth"]
        scope = "system"
        [automatic]
        never = ["hdmi"]
        only = ["bluetooth"]
        hold-off = "1s"
        [media]
        pause-on-unplug = false
        private-kinds = ["bluetooth"]
        resume-within = "60s"
        hold-during-calls = false
        [calls]
        preferences = ["bluetooth"]
        detect = false
        detect-roles = ["phone"]
        detect-applications = ["baresip"]
        ringing = "headset"
        ring-roles = ["event"]
        ring-applications = ["gnome-calls"]
        """

    /// Each key with another value than `quiet`'s (`match` goes with `scope`).
    static let changes: [(key: String, from: String, to: String)] = [
        ("preferences", #"preferences = ["bluetooth"]"#, #"preferences = ["speakerphone"]"#),
        ("scope", #"scope = "system""#, "scope = \"application\"\n[match]\n\"media.role\" = \"phone\""),
        ("[automatic] never", #"never = ["hdmi"]"#, #"never = ["usb"]"#),
        ("[automatic] only", #"only = ["bluetooth"]"#, #"only = ["wiredHeadset"]"#),
        ("[automatic] hold-off", #"hold-off = "1s""#, #"hold-off = "3s""#),
        ("[media] pause-on-unplug", "pause-on-unplug = false", "pause-on-unplug = true"),
        ("[media] private-kinds", #"private-kinds = ["bluetooth"]"#, #"private-kinds = ["wiredHeadset"]"#),
        ("[media] resume-within", #"resume-within = "60s""#, #"resume-within = "120s""#),
        ("[media] hold-during-calls", "hold-during-calls = false", "hold-during-calls = true"),
        ("[calls] preferences", "[calls]\npreferences = [\"bluetooth\"]", "[calls]\npreferences = [\"speakerphone\"]"),
        ("[calls] detect", "detect = false", "detect = true"),
        ("[calls] detect-roles", #"detect-roles = ["phone"]"#, #"detect-roles = ["voip"]"#),
        ("[calls] detect-applications", #"detect-applications = ["baresip"]"#, #"detect-applications = ["linphone"]"#),
        ("[calls] ringing", #"ringing = "headset""#, #"ringing = "speaker""#),
        ("[calls] ring-roles", #"ring-roles = ["event"]"#, #"ring-roles = ["alarm"]"#),
        ("[calls] ring-applications", #"ring-applications = ["gnome-calls"]"#, #"ring-applications = ["chatty"]"#),
    ]

    @Test("the file's keys are all in the list of changes")
    func everyKeyIsChanged() {
        let named = Set(Self.changes.map(\.key))
        let keys = ["preferences", "scope"] + ConfigurationFile.automaticKeys.map { "[automatic] \($0)" }
            + ConfigurationFile.mediaKeys.map { "[media] \($0)" } + ConfigurationFile.callKeys.map { "[calls] \($0)" }
        #expect(Set(keys) == named)
    }

    @Test("each key changed alone applies, or says it waits for a restart and stays as it was",
          arguments: Self.changes.map(\.key))
    func eachKeyAppliesOrWaits(key: String) throws {
        let change = try #require(Self.changes.first { $0.key == key })
        #expect(Self.quiet.contains(change.from), "the change must apply to the quiet file")
        let running = try ConfigurationFile.parse(Self.quiet, path: "quiet.toml")
        #expect(!running.subscription.contains(.streams))
        let loaded = try ConfigurationFile.parse(Self.quiet.replacingOccurrences(of: change.from, with: change.to), path: "changed.toml")
        #expect(loaded != running, "the change is a change")
        let fitted = ReloadPlan.fitted(loaded, running: running, subscription: running.subscription)
        let steps = ReloadPlan.steps(from: running, to: fitted.configuration)
        let restarts = steps.filter { $0 == .callDetectionNeedsRestart || { if case .scopeNeedsRestart = $0 { true } else { false } }($0) }
        #expect(!steps.isEmpty || !fitted.waiting.isEmpty, "nothing applied and nothing said")
        if !fitted.waiting.isEmpty {
            #expect(fitted.waiting == [key], "the key waits, by its name")
            #expect(fitted.configuration == running, "a waiting key stays as it was")
        } else if restarts.isEmpty {
            #expect(fitted.configuration == loaded, "what applies applies in full")
        }
        #expect(fitted.partial == (key == "[calls] ringing" ? [key] : []), "ringing off the headset applies in part, and says so")
    }

    @Test("turning media pausing on in a daemon that started following streams applies at once")
    func pausingOnWithStreams() throws {
        var running = try ConfigurationFile.parse(Self.quiet, path: "quiet.toml")
        running.calls.detects = true
        let loaded = { var loaded = running; loaded.media.pausesOnUnplug = true; return loaded }()
        let fitted = ReloadPlan.fitted(loaded, running: running, subscription: running.subscription)
        #expect(fitted.waiting.isEmpty && fitted.partial.isEmpty)
        #expect(ReloadPlan.steps(from: running, to: fitted.configuration) == [.media(loaded.media)])
    }
}
