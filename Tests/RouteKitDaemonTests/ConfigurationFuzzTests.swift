import Foundation
import RouteKit
@testable import RouteKitDaemon
import TestSupport
import Testing

/// The daemon's configuration reader given what no person meant to write: 100 000 mutations
/// of real configurations, pathological texts, and files that are no text at all. It must
/// never crash or hang, and every refusal names the file's line.
@Suite("Configuration file fuzzed")
struct ConfigurationFuzzTests {
    /// Real configurations to mutate: the shipped file, and one using every table.
    static let seeds: [String] = {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Configs/routekit.toml")
        let every = """
            preferences = ["bluez_card.00_11_22_33_44_55", "wiredHeadset", "speakerphone"]
            scope = "application"
            [match]
            "media.role" = "phone"
            application.name = 'baresip'
            [automatic]
            never = ["alsa_card.pci-0000_00_1f.3"]
            only = []
            hold-off = "500ms"
            [media]
            pause-on-unplug = false
            private-kinds = ["bluetooth", "wiredHeadset"]
            resume-within = "30s"
            hold-during-calls = true
            [calls]
            preferences = ["bluetooth", "earpiece"]
            detect = true
            detect-roles = ["phone"]
            detect-applications = ["linphone", \"\"\"baresip\"\"\"]
            ringing = "speaker-and-headset"
            ring-roles = ["event"]
            ring-applications = ["gnome-calls"]
            """
        return [(try? String(contentsOf: shipped, encoding: .utf8)) ?? every, every]
    }()

    /// What mutations insert: TOML's own punctuation, and what breaks lines or encodings.
    static let fragments: [String] = [
        "[", "]", "[[", "]]", "{", "}", "=", "\"", "'", "\"\"\"", "'''", "#", ".", ",", "\n", "\r\n", "\r", "\t", " ",
        "\\", "\\u", "\\U0010FFFF", "\u{0}", "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{2028}", "\u{202E}", "\u{FEFF}", "é", "日本",
        "🎧", "1979-05-27T07:32:00Z", "inf", "nan", "-0", "0x7FFFFFFFFFFFFFFF", "99999999999999999999", "1e400", "true",
        "[a.b.c]", "a.b.c = 1", "x = {a = {b = {}}}", "preferences", "scope", "match", "automatic", "hold-off", "[calls]",
    ]

    /// `text` with one to four random edits: a fragment inserted, a span deleted or
    /// duplicated, or the text cut short.
    static func mutate(_ text: String, using generator: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let at = scalars.isEmpty ? 0 : Int.random(in: 0...scalars.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                scalars.insert(contentsOf: fragments.randomElement(using: &generator)!.unicodeScalars, at: at)
            case 1:
                let end = min(scalars.count, at + Int.random(in: 1...12, using: &generator))
                scalars.removeSubrange(at..<end)
            case 2:
                let end = min(scalars.count, at + Int.random(in: 1...40, using: &generator))
                scalars.insert(contentsOf: scalars[at..<end], at: at)
            default:
                scalars.removeSubrange(at...)
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    /// What reading a text gave.
    enum Outcome: Equatable {
        case accepted, refusedWithItsLine, refusedWithoutALine
    }

    /// Parses `text`: a configuration, or a refusal that should name a line of the text.
    static func check(_ text: String) -> Outcome {
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse(text, path: "fuzz.toml")
            return .accepted
        } catch {
            let lineCount = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
            guard let line = error.line, (1...lineCount).contains(line) else {
                Issue.record("no line named: \(error) for \(String(text.prefix(300)).debugDescription)")
                return .refusedWithoutALine
            }
            return .refusedWithItsLine
        }
    }

    /// 100 000 mutations in four parts of 25 000, each from its own fixed seed, which Swift
    /// Testing runs side by side: alone, one run of them all was the suite's longest test.
    /// Each part gives its thread back every ``yieldEvery`` mutations: the parts are 12–15 s of
    /// CPU each, and four of them held both threads of a two-core machine's shared pool for
    /// half a minute, so that the live tests beside them, whose stops and cancellations hop
    /// through that pool, waited as long (a `stop()` timed at 32.7 s against its 6 s bound).
    @Test("100 000 mutated configurations are read or refused with a line, never a crash", arguments: 0..<4)
    func mutations(part: UInt64) async {
        var generator = SplitMix64(seed: 18 + part)
        var refused = 0
        var failures = 0
        for index in 0..<25_000 {
            if index % Self.yieldEvery == 0 { await Task.yield() }
            let text = Self.mutate(Self.seeds[index % Self.seeds.count], using: &generator)
            switch Self.check(text) {
            case .accepted: break
            case .refusedWithItsLine: refused += 1
            case .refusedWithoutALine: failures += 1
            }
            if failures > 20 { break }
        }
        #expect(failures == 0)
        #expect(refused > 12_500, "the mutations mostly break the file: \(refused) refused")
    }

    /// How many mutations a part checks between two yields of its thread (about 25 ms).
    static let yieldEvery = 50

    /// Texts no person writes, each with its name.
    static let pathologicalTexts: [(String, String)] = {
        let deep: (Int) -> String = { count in Array(repeating: "a", count: count).joined(separator: ".") }
        let manyKeys: String = (0..<100_000).map { (index: Int) -> String in "k\(index) = 1" }.joined(separator: "\n")
        var texts: [(String, String)] = []
        texts.append(("a line of quotes", String(repeating: "\"a", count: 300_000)))
        texts.append(("nested arrays", "preferences = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)))
        texts.append(("nested inline tables",
                      "[match]\nx = " + String(repeating: "{a=", count: 50_000) + "1" + String(repeating: "}", count: 50_000)))
        texts.append(("a dotted key 10 000 deep", "[match]\n" + deep(10_000) + " = \"x\""))
        texts.append(("a dotted key filling 1 MiB", "[match]\n" + deep(500_000) + " = \"x\""))
        texts.append(("a table header 10 000 deep", "[" + deep(10_000) + "]"))
        texts.append(("an unterminated multi-line string", "preferences = \"\"\"" + String(repeating: "x\n", count: 200_000)))
        texts.append(("100 000 keys", manyKeys))
        texts.append(("a NUL after a valid line", "preferences = [\"bluetooth\"]\n\u{0}scope = \"nonsense\""))
        texts.append(("CRLF lines", "preferences = [\"bluetooth\"]\r\nscope = \"sytem\"\r\n"))
        return texts
    }()

    @Test("pathological texts end quickly, read or refused with their line", arguments: pathologicalTexts.map(\.0))
    func pathological(name: String) throws {
        let text = try #require(Self.pathologicalTexts.first { $0.0 == name }?.1)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(Self.check(text) != .refusedWithoutALine, "\(name)")
        #expect(clock.now - start < .seconds(30), "\(name) took \(clock.now - start)")
    }

    @Test func aNulByteIsRefusedOnItsLineRatherThanEndingTheFile() throws {
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse("preferences = [\"bluetooth\"]\n\u{0}scope = \"nonsense\"", path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.description == "c.toml:2: a NUL byte: this is not a text file")
        }
    }

    /// Found by the mutations: toml++ fails an assertion (and ends the process) on a table
    /// header starting with a character that is not ASCII.
    @Test("what is not ASCII or is a control character outside quotes is refused on its line, before the parser", arguments: [
        ("scope = \"system\"\n[\u{E9}calls]\n", 2, "\"\u{E9}\" (U+00E9) outside quotes; TOML writes keys and values in ASCII: put text in quotes"),
        ("[calls]\nx = {\u{E9} = 1}", 2, "\"\u{E9}\" (U+00E9) outside quotes; TOML writes keys and values in ASCII: put text in quotes"),
        ("# ok \u{E9}\nscope = \"sys\u{1B}tem\"\nscope\u{1B} = 1", 3, "a control character (U+001B) outside quotes"),
        ("a = \"\"\"\n\u{E9}\\\"\"\"\n\"\"\"\n[\u{2028}]", 4, "\"\u{2028}\" (U+2028) outside quotes; TOML writes keys and values in ASCII: put text in quotes"),
    ])
    func notASCIIOutsideQuotes(text: String, line: Int, message: String) throws {
        try expectRefusal(text, line: line, message: message)
    }

    /// Found by the mutations: a `[` left at the end of a line, or a header with no name, fails
    /// the same assertion.
    @Test("a table header without a name is refused on its line, before the parser",
          arguments: ["[", "[ \n", "[[\n", "[=]", "[]", "[\t#"])
    func tableHeaderWithoutAName(header: String) throws {
        try expectRefusal("# a comment\n" + header, line: 2, message: "a table header needs a name, such as [automatic]")
    }

    /// Found by the mutations: a `}` where a list's value may come fails another assertion.
    @Test("a bracket that closes the other kind is refused on its line, before the parser",
          arguments: ["a = [1,}]", "a = [}", "a = [ # c\n}]", "a = {b = [1]}}", "a = {b = 1]"])
    func mismatchedBrackets(text: String) throws {
        let line = text.contains("\n") ? 3 : 2
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse("scope = \"system\"\n" + text, path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.line == line, "\(error)")
        }
    }

    @Test func aHeaderWithBlanksIsReadAndAnArrayOnItsOwnLineIsNoHeader() throws {
        let configuration = try ConfigurationFile.parse("[ automatic ]\nnever = [\n  \"a\",\n]\n[ \"media\" ]\n", path: "c.toml")
        #expect(configuration.automatic.never == [DeviceMatch("a")])
        try expectRefusal("preferences = [\n[\n\"a\"]]", line: 1, message: #"must be a list of strings, such as ["bluetooth", "speakerphone"]; found a list in it"#)
    }

    private func expectRefusal(_ text: String, line: Int, message: String) throws {
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse(text, path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message == message)
        }
    }

    @Test func textThatIsNotASCIIInQuotesAndCommentsIsRead() throws {
        let configuration = try ConfigurationFile.parse("""
            # Kopfh\u{F6}rer \u{2014} \u{1F3A7}
            preferences = ["Kopfh\u{F6}rer", 'caf\u{E9}', \"\"\"\u{65E5}\u{672C}\"\"\"]
            [match]
            "m\u{E9}dia.role" = "t\u{E9}l\u{E9}phone"
            """, path: "c.toml")
        #expect(configuration.preferences.map(\.description) == ["Kopfh\u{F6}rer", "caf\u{E9}", "\u{65E5}\u{672C}"])
    }

    @Test func aKeyTooDeepIsRefusedOnItsLine() throws {
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse("scope = \"system\"\n[match]\n" + Array(repeating: "a", count: 20).joined(separator: ".") + " = 1",
                                            path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "c.toml:3: a key 21 parts deep; no key here has more than 16")
        }
    }

    @Test func aCRLFFileHasItsErrorsOnTheirLines() throws {
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse("preferences = [\"bluetooth\"]\r\n\r\nscope = \"sytem\"\r\n", path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 3, "\(error)")
            #expect(error.key == "scope")
        }
    }

    @Test("files that are no configuration are refused by name: a FIFO, /dev/zero, a directory, invalid UTF-8")
    func files() throws {
        try withTemporaryFolder { folder in
            let fifo = folder + "/fifo.toml"
            #expect(mkfifo(fifo, 0o600) == 0)
            let invalid = folder + "/latin1.toml"
            let bytes = Array("preferences = [\"bluetooth\"]\n# caf".utf8) + [0xE9] + Array("\nscope = \"system\"\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: invalid))
            let expectations: [(String, ConfigurationLocation.Failure)] = [
                (fifo, .unreadable(path: fifo, .notRegularFile)),
                ("/dev/zero", .unreadable(path: "/dev/zero", .notRegularFile)),
                (folder, .unreadable(path: folder, .notRegularFile)),
                (invalid, .unreadable(path: invalid, .notText(line: 2))),
            ]
            for (path, expected) in expectations {
                do throws(ConfigurationLocation.Failure) {
                    _ = try ConfigurationLocation(path: path, isExplicit: true).load()
                    Issue.record("\(path) accepted")
                } catch {
                    #expect(error == expected, "\(path)")
                }
            }
        }
    }

    private func withTemporaryFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }
}
