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

    @Test("deduplicated() keeps a sink on its card when the captures number the card differently")
    func renumberedCard() throws {
        let text = """
            Card #0
            \tName: alsa_card.usb-headset
            \tDriver: module-alsa-card.c
            \tProperties:
            \t\tdevice.bus = "usb"
            \tProfiles:
            \t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority: 6500, available: yes)
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output: Analog Output (priority: 9900, availability unknown)
            \t\t\tPart of profile(s): output:analog-stereo
            Sink #0
            \tName: alsa_output.usb-headset.analog-stereo
            \tDriver: module-alsa-card.c
            \tCard: 0
            \tPorts:
            \t\tanalog-output: Analog Output (priority: 9900, availability unknown)
            \tActive Port: analog-output
            Card #4
            \tName: alsa_card.usb-headset
            \tDriver: module-alsa-card.c
            \tProperties:
            \t\tdevice.bus = "usb"
            \tProfiles:
            \t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority: 6500, available: yes)
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output: Analog Output (priority: 9900, availability unknown)
            \t\t\tPart of profile(s): output:analog-stereo
            """
        // The first capture lists the card and its sink, the second the card alone, renumbered.
        let dump = try ServerDump.parse(text).deduplicated()
        #expect(dump.cards.map(\.index) == [4])
        #expect(dump.sinks.map(\.card) == [4])
    }

    @Test("corpus files that paste one machine twice list each device once", arguments: ["05_", "59_"])
    func corpusCaptures(prefix: String) throws {
        let name = try #require(CorpusFile.names().first { $0.hasPrefix(prefix) })
        let devices = try ServerDump.parse(CorpusFile.load(name).dump).devices
        let ids = devices.map(\.id.rawValue)
        #expect(ids.count == Set(ids).count, "\(name): \(ids)")
    }
}
