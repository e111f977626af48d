import Foundation
@testable import RouteCtlCommands
import SoundServerSandbox
import Testing

/// Every routectl command given words nobody means (empty, overlong, control characters,
/// invisible formatting, text that was not UTF-8): a usage error that shows the word escaped,
/// and nothing changed on the server.
@Suite("routectl refuses bad arguments")
struct BadArgumentTests {
    /// Bad words, and what the refusal says of each.
    static let badWords: [(word: String, says: String)] = [
        ("", "empty"),
        ("  ", "empty"),
        (String(repeating: "a", count: 5000), "5000 bytes, longer than the 4096 taken"),
        ("bt\u{1B}[31mred", "a control character (U+001B)"),
        ("two\nlines", "a control character (U+000A)"),
        ("csi\u{9B}2J", "a control character (U+009B)"),
        ("evil\u{202E}txt.toml", "an invisible formatting character (U+202E)"),
        ("zero\u{200B}width", "an invisible formatting character (U+200B)"),
        ("bad\u{FFFD}utf8", "not UTF-8 text"),
        ("non\u{FFFF}char", "U+FFFF is not a character"),
    ]

    @Test("each kind of bad word is refused, shown escaped")
    func refusals() throws {
        for (word, says) in Self.badWords {
            let refusal = try #require(ArgumentCheck.refusal(in: ["use", word]), "\(word.debugDescription)")
            #expect(refusal.position == 2)
            #expect(refusal.reason.hasPrefix(says), "\(refusal)")
            #expect(!refusal.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                    "\(refusal.description.debugDescription)")
        }
        #expect(ArgumentCheck.refusal(in: ["use", "bt\u{1B}[31mred"])?.shown == "bt\\x1b[31mred")
        #expect(ArgumentCheck.refusal(in: ["use", String(repeating: "a", count: 5000)])?.shown == String(repeating: "a", count: 60) + "…")
    }

    @Test("what people do write is taken: ids, paths, other scripts, emoji, and a shell command with lines for --exec")
    func accepted() {
        for arguments in [["use", "alsa_card.usb-Jabra_Link_380-00/analog-output"], ["use", "Kopfhörer"], ["list", "--from-dump", "/tmp/日本語 dump.txt"],
                          ["daemon", "--match", "media.role=phone", "--prefer", "🎧"], ["volume-keys", "--exec", "echo up\n\techo \u{1B}"],
                          ["volume-keys", "--exec=printf '\\a'\n"], ["--server", "unix:/run/user/1000/pulse/native"]] {
            #expect(ArgumentCheck.refusal(in: arguments) == nil, "\(arguments)")
        }
    }

    @Test("every command from routectl --help refuses every bad word in every place, exit 64, and nothing changes",
          arguments: SoundServerKind.allCases)
    func everyCommand(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let before = try await serverState(session)
            let commands = try await commandLines(session.routectl)
            #expect(commands.count > 20, "\(commands)")
            var runs = 0
            for command in commands {
                for (word, says) in Self.badWords {
                    let arguments = command.map { $0 == "BAD" ? word : $0 }
                    let output = try await session.run(arguments)
                    runs += 1
                    #expect(output.status == 64, "\(arguments.map(\.debugDescription)): \(output.standardError)")
                    #expect(output.standardError.hasPrefix("routectl: argument "), "\(output.standardError)")
                    #expect(output.standardError.contains(says), "\(output.standardError)")
                    #expect(!output.standardError.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
                            "raw control characters reached the terminal: \(output.standardError.debugDescription)")
                    #expect(output.standardOutput.isEmpty)
                }
            }
            #expect(try await serverState(session) == before, "nothing changed on the server")
            #expect(!FileManager.default.fileExists(atPath: session.stateFile), "no preference was kept")
        }
    }

    /// Each command of `routectl --help`, once with BAD for its argument and once with BAD as
    /// the value of each option that takes one (as its `--help` lists them).
    private func commandLines(_ routectl: Executable) async throws -> [[String]] {
        let help = try await routectl.run(["--help"]).standardOutput
        let subcommands = section("SUBCOMMANDS:", of: help).compactMap { $0.split(separator: " ").first.map(String.init) }
        var lines: [[String]] = [["BAD"]]
        for subcommand in subcommands where subcommand != "help" {
            lines.append([subcommand, "BAD"])
            let options = section("OPTIONS:", of: try await routectl.run([subcommand, "--help"]).standardOutput)
            for line in options {
                // "--server <server>", "-p, --prefer <device|kind>": an option that takes a value.
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(where: { $0.hasPrefix("<") }), index > 0 else { continue }
                let option = words[index - 1].trimmingCharacters(in: CharacterSet(charactersIn: ","))
                guard option.hasPrefix("--"), option != "--exec" else { continue }
                lines.append([subcommand, option, "BAD"])
            }
        }
        return lines
    }

    /// The lines of `help` under `heading`, up to the next heading, without their indent.
    private func section(_ heading: String, of help: String) -> [String] {
        var inside = false
        var lines: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(":"), !line.hasPrefix(" ") {
                inside = line == heading
                continue
            }
            if inside, line.hasPrefix("  "), !line.hasPrefix("    ") {
                lines.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return lines
    }

    /// What a user would see of the server: its default sink and every sink with its volume and mute.
    private func serverState(_ session: RouteCtlSession) async throws -> [String] {
        let sinks = try await session.server.pactl("list", "sinks")
        let lines = sinks.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("Name:") || $0.hasPrefix("Mute:") || $0.hasPrefix("Volume:") }
        return [try await ServerObservation.defaultSink(on: session.server)] + lines
    }
}
