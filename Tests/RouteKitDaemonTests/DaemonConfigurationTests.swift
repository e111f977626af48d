import PulseAudio
@testable import RouteKitDaemon
import RouteKit
import Testing

/// The command line over the file, and what a reload changes.
@Suite("Daemon configuration")
struct DaemonConfigurationTests {
    let file = DaemonConfiguration(preferences: [.kind(.speakerphone)], scope: .application(.role("phone")),
                                   automatic: AutomaticChoice(holdOff: .seconds(2)))

    @Test func theCommandLineWinsOverTheFile() throws {
        let overrides = DaemonOverrides(preferences: [.kind(.bluetooth)], scope: .system)
        let merged = try overrides.applied(to: file)
        #expect(merged.preferences == [.kind(.bluetooth)])
        #expect(merged.scope == .system)
        #expect(merged.automatic == file.automatic, "what the command line does not set stays the file's")
        #expect(overrides.preferenceOrigin(fileHasPreferences: true) == .commandLine)
        #expect(DaemonOverrides().preferenceOrigin(fileHasPreferences: true) == .configurationFile)
        #expect(DaemonOverrides().preferenceOrigin(fileHasPreferences: false) == .none)
    }

    @Test func matchImpliesApplicationScope() throws {
        let merged = try DaemonOverrides(match: ["media.role": "music"]).applied(to: DaemonConfiguration())
        #expect(merged.scope == .application(.role("music")))
    }

    @Test func applicationScopeTakesTheFilesMatchOrNeedsOne() throws {
        #expect(try DaemonOverrides(scope: .application).applied(to: file).scope == .application(.role("phone")))
        let failure = #expect(throws: DaemonFailure.self) { try DaemonOverrides(scope: .application).applied(to: DaemonConfiguration()) }
        // A bad choice, which routectl answers as a usage error (RouteCtlTests' exit statuses).
        guard case .invalidChoice = failure else { Issue.record("\(String(describing: failure))"); return }
    }

    @Test func aReloadChangesWhatChangedAndDefersTheScope() {
        let running = DaemonConfiguration(preferences: [.kind(.bluetooth)])
        #expect(ReloadPlan.steps(from: running, to: running).isEmpty)
        #expect(ReloadPlan.steps(from: running, to: file) == [
            .preferences([.kind(.speakerphone)]), .automatic(AutomaticChoice(holdOff: .seconds(2))),
            .scopeNeedsRestart(.application(.role("phone"))),
        ])
    }

    @Test func theSummaryNamesWhatIsSet() {
        #expect(file.summary == "preferring speakerphone; scope application (media.role=phone); hold-off 2s")
        #expect(DaemonConfiguration().summary == "no preferences; scope system")
    }
}
