import DumpReader
import Foundation
import PulseAudio
import RouteKit
import Testing

/// Large honest inputs keep every block. How long they take is measured by the
/// `dump-benchmarks` executable (Docs/Benchmarks.md), not by a timed test.
@Suite("Dump: large inputs")
struct DumpPerformanceTests {
    @Test("a 20 000-line paste of the same dump again and again keeps every copy", arguments: [
        "18_laptop-legion5-alc287-plus-usb-headset-corsair-hs70-sinks-and-sources_pw.txt",
        "16_dock-dell-wd19-usb-audio-no-ucm-email-wrapped_pa.txt",
    ])
    func twentyThousandLines(_ name: String) throws {
        let dump = try CorpusFile.load(name).dump
        let copies = 20_000 / dump.split(separator: "\n").count + 1
        let text = Array(repeating: dump, count: copies).joined(separator: "\n")
        let parsed = try ServerDump.parse(text)
        let single = try ServerDump.parse(dump)
        #expect(parsed.sinks.count == single.sinks.count * copies)
        #expect(parsed.cards.count == single.cards.count * copies)
    }

    @Test("a bracket run deeper than the parser goes still lets the JSON after it be read")
    func deepBrackets() throws {
        let text = String(repeating: "[", count: 10_000) + "\n{\"media.class\": \"Audio/Sink\", \"node.name\": \"after\"}\n"
        let parsed = try ServerDump.parse("{}\n" + text)
        #expect(parsed.sinks.map(\.name) == ["after"])
    }

    @Test("a field continued over many lines keeps every line, in order")
    func longContinuation() throws {
        let lines = (0..<5_000).map { "\tpart \($0)" }.joined(separator: "\n")
        let parsed = try ServerDump.parse("Sink #0\n\tName: x\n\tDescription: start\n\(lines)\n")
        let description = try #require(parsed.sinks.first?.description)
        #expect(description.hasPrefix("start part 0 part 1 "))
        #expect(description.hasSuffix(" part 4999"))
    }
}
