import DumpReader
import Foundation
import RouteKit
import Testing

@Suite("Dump: speed")
struct DumpPerformanceTests {
    @Test("a 20 000-line dump parses in well under a second of CPU time", arguments: [
        "18_laptop-legion5-alc287-plus-usb-headset-corsair-hs70-sinks-and-sources_pw.txt",
        "16_dock-dell-wd19-usb-audio-no-ucm-email-wrapped_pa.txt",
    ])
    func twentyThousandLines(_ name: String) throws {
        let dump = try CorpusFile.load(name).dump
        let copies = 20_000 / dump.split(separator: "\n").count + 1
        let text = Array(repeating: dump, count: copies).joined(separator: "\n")
        let start = Self.threadCPUTime()
        let parsed = try ServerDump.parse(text)
        let elapsed = Self.threadCPUTime() - start
        let single = try ServerDump.parse(dump)
        #expect(parsed.sinks.count == single.sinks.count * copies)
        #expect(parsed.cards.count == single.cards.count * copies)
        #expect(elapsed < 1, "parsing \(copies) copies of \(name) took \(elapsed) s of CPU time")
    }

    /// The CPU time this thread has used, in seconds: unlike wall time, it does not grow when
    /// other tests load the machine.
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
