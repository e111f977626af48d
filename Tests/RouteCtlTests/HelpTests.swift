import Foundation
import Testing

/// routectl's help teaches by example and documents every exit status; its completions come
/// from swift-argument-parser's own generator.
@Suite("routectl help and completions")
struct HelpTests {
    @Test func theTopHelpListsEveryCommandAndExitStatus() async throws {
        let help = try await Executable.built("routectl").run(["--help"])
        #expect(help.status == 0)
        for command in ["list", "status", "use", "prefer", "monitor", "call", "speaker", "mic", "daemon"] {
            #expect(help.standardOutput.contains("  \(command) "), "\(command)")
        }
        for status in ["64 for a usage error", "67 when no such device", "68 when no daemon runs", "69 when no sound server",
                       "70 when the server refused", "72 when there is no session bus", "78 for an invalid configuration"] {
            #expect(help.standardOutput.replacingOccurrences(of: "\n", with: " ").contains(status), "\(status)")
        }
    }

    @Test("every command's help shows an example", arguments: [
        ("use", "routectl use speakerphone"), ("prefer", "routectl prefer bluetooth wiredHeadset speakerphone"),
        ("monitor", "routectl monitor --json"), ("call", "routectl call start"), ("speaker", "routectl speaker on"),
        ("mic", "routectl mic mute"), ("status", "routectl status --json"),
        ("daemon", "routectl daemon --scope application --match media.role=phone"),
    ])
    func example(command: String, example: String) async throws {
        let help = try await Executable.built("routectl").run([command, "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains(example), "\(help.standardOutput)")
    }

    @Test("completions for bash, zsh and fish", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let script = try await Executable.built("routectl").run(["--generate-completion-script", shell])
        #expect(script.status == 0)
        #expect(script.standardOutput.contains("routectl"))
        #expect(script.standardOutput.contains("speaker"))
    }
}
