import DumpReader
import Foundation
import PulseAudio
import RouteKit
import Testing

@Suite("Dump corpus")
struct CorpusDumpTests {
    @Test("the corpus is where the tests expect it")
    func corpusIsPresent() {
        let names = CorpusFile.names()
        #expect(names.count >= 20, "no corpus at \(CorpusFile.directory.path) (expected Tests/Corpus in the repository)")
    }

    @Test("every corpus file parses and shows every entity its labels name", arguments: CorpusFile.names())
    func corpusFile(_ name: String) throws {
        let file = try CorpusFile.load(name)
        let dump = try ServerDump.parse(file.text)
        let expectations = file.expectations
        #expect(!expectations.isEmpty, "\(name) has no expected labels")
        for expectation in expectations {
            #expect(dump.satisfies(expectation), "\(name): \(expectation) → \(dump.targets(of: expectation))")
        }
    }

    @Test("entities a paste cut off stay what the paste shows: nodes without media.class")
    func cutOffEntities() throws {
        let pwCli = try ServerDump.parse(CorpusFile.load(
            "26_laptop-cometlake-sof-ucm-hdmi-and-speaker-headphones-nodes-EXCERPT_pw-cli.txt").text)
        let node44 = try #require(pwCli.otherNodes.first { $0["object.id"] == "44" })
        #expect(node44["node.description"] == "Comet Lake PCH-LP cAVS Speaker + Headphones")
        #expect(node44["media.class"] == nil && !pwCli.sinks.contains { $0.index == 44 })

        let pwDump = try ServerDump.parse(CorpusFile.load(
            "27_desktop-spdif-default-sink-hdmi-configured-EXCERPT_pw-dump.txt").text)
        #expect(pwDump.otherNodes.map { $0["object.path"] } == ["alsa:pcm:2:iec958:2:playback"])
        #expect(pwDump.defaultSourceName == "Firefox")
    }

    @Test("the dump alone, without the corpus headers, parses the same", arguments: CorpusFile.names())
    func dumpWithoutHeaders(_ name: String) throws {
        let file = try CorpusFile.load(name)
        #expect(try ServerDump.parse(file.dump) == ServerDump.parse(file.text))
    }
}
