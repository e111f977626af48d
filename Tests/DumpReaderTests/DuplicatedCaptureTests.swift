import DumpReader
import PulseAudio
import RouteKit
import Testing

/// A paste that holds the same machine twice (`pactl list`, then `pacmd` of the same sinks, or
/// two runs): each card, sink and source is one device set, not two.
@Suite("Dump: one machine pasted twice")
struct DuplicatedCaptureTests {
    @Test("pactl then pacmd of the same sink: each port is one device")
    func pactlThenPacmd() throws {
        let text = """
            Sink #0
            \tName: alsa_output.pci-0000_00_1b.0.analog-stereo
            \tDescription: Built-in Audio Analog Stereo
            \tDriver: module-alsa-card.c
            \tPorts:
            \t\tanalog-output-lineout: Line Out (priority: 9900, available)
            \t\tanalog-output-headphones: Headphones (priority: 9000)
            \tActive Port: analog-output-headphones
            1 sink(s) available.
              * index: 0
            \tname: <alsa_output.pci-0000_00_1b.0.analog-stereo>
            \tdriver: <module-alsa-card.c>
            \tports:
            \t\tanalog-output-lineout: Line Out (priority 9900, latency offset 0 usec, available: yes)
            \t\tanalog-output-headphones: Headphones (priority 9000, latency offset 0 usec, available: unknown)
            \tactive port: <analog-output-headphones>
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.count == 2)
        let ids = dump.devices.map(\.id.rawValue)
        #expect(ids.count == Set(ids).count, "\(ids)")
        #expect(ids.count == 2)
    }

    @Test("two listings of one card that differ in ports (before and after a change) give each port")
    func changedCard() throws {
        let name = try #require(CorpusFile.names().first { $0.hasPrefix("14_") })
        let devices = try ServerDump.parse(CorpusFile.load(name).dump).devices
        let ports = Set(devices.compactMap { $0.output?.port })
        #expect(ports.isSuperset(of: ["[Out] Speaker", "[Out] Headphones", "analog-output-speaker", "analog-output-headphones"]))
    }

    @Test("corpus files that paste one machine twice list each device once", arguments: ["05_", "59_"])
    func corpusCaptures(prefix: String) throws {
        let name = try #require(CorpusFile.names().first { $0.hasPrefix(prefix) })
        let devices = try ServerDump.parse(CorpusFile.load(name).dump).devices
        let ids = devices.map(\.id.rawValue)
        #expect(ids.count == Set(ids).count, "\(name): \(ids)")
    }
}
