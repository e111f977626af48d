import DumpReader
import Foundation
import PropertyBased
import PulseAudio
import RouteKit
import Testing

/// The reader on generated input: it never crashes, always answers the same, and points at a
/// line of the text when it refuses it. `DUMP_FUZZ_COUNT=100000 swift test --filter DumpFuzz`
/// runs the recorded 100 000 inputs (Docs/Benchmarks.md).
@Suite("Dump: fuzzing")
struct DumpFuzzTests {
    @Test("any text is read or refused with a line of it, the same way twice, and gives devices")
    func anyText() async {
        let start = ContinuousClock.now
        var slowest = (perKilobyte: Duration.zero, text: "", took: Duration.zero)
        await propertyCheck(count: DumpFuzzInputs.count, input: DumpFuzzInputs.any) { text in
            let lines = text.utf8.reduce(1) { $1 == 10 || $1 == 13 ? $0 + 1 : $0 }
            let parseStart = ContinuousClock.now
            let first = Result { () throws(DumpParseError) in try ServerDump.parse(text) }
            let took = ContinuousClock.now - parseStart
            let kilobytes = Double(text.utf8.count) / 1024 + 1
            if took / kilobytes > slowest.perKilobyte {
                slowest = (took / kilobytes, text, took)
            }
            let second = Result { () throws(DumpParseError) in try ServerDump.parse(text) }
            switch (first, second) {
            case (.success(let dump), .success(let again)):
                #expect(dump == again)
                _ = DeviceModel.devices(cards: dump.cards, sinks: dump.sinks, sources: dump.sources,
                                        defaultSinkName: dump.defaultSinkName, defaultSourceName: dump.defaultSourceName)
            case (.failure(let error), .failure(let again)):
                #expect(error.line == again.line && error.message == again.message)
                #expect((1...lines).contains(error.line), "line \(error.line) of \(lines)")
            default:
                Issue.record("the same text was read once and refused once")
            }
        }
        // Reported, not asserted: time is measured by benchmarks, not by tests. The slowest
        // input is read again (best of three) to tell a slow input from a busy machine.
        let again = (0..<3).map { _ in ContinuousClock().measure { _ = try? ServerDump.parse(slowest.text) } }.min() ?? .zero
        print("dump fuzzing: \(DumpFuzzInputs.count) inputs in \(ContinuousClock.now - start); slowest per kB: "
              + "\(slowest.text.utf8.count) bytes in \(slowest.took), again in \(again)")
    }
}
