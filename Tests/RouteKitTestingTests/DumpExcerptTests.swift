import DumpReader
import PulseAudio
import RouteKitTesting
import Testing

/// Pastes that show less than a server holds: cards cut before their profiles, profile lists
/// elided, PipeWire monitors that repeat their sink's ports. The server they make is still one
/// PulseAudio could be.
@Suite("A simulated server from an excerpt")
struct DumpExcerptTests {
    @Test("a card cut before its profiles is in profile off, which it lists")
    func cardWithoutProfiles() async throws {
        let dump = try ServerDump.parse("""
            Card #7
            \tName: bluez_card.00_11_22_33_44_55
            \tDriver: module-bluez5-device.c
            \tProperties:
            \t\tdevice.bus = "bluetooth"
            """)
        let server = SimulatedServer(dump: dump)
        let card = try #require(try await server.cards().first)
        #expect(card.activeProfileName == "off")
        #expect(card.activeProfile?.sinkCount == 0)
    }

    @Test("a card whose profile list was elided keeps the profile it is in")
    func elidedProfiles() async throws {
        let dump = try ServerDump.parse("""
            Card #0
            \tName: alsa_card.pci-0000_00_1f.3
            \tDriver: module-alsa-card.c
            \tProfiles:
            ...
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output-speaker: Speakers (priority: 10000, latency offset: 0 usec)
            \t\t\tPart of profile(s): output:analog-stereo
            """)
        let server = SimulatedServer(dump: dump)
        let card = try #require(try await server.cards().first)
        #expect(card.activeProfile?.name == "output:analog-stereo")
    }

    @Test("a PipeWire monitor that repeats its carded sink's ports has none of its own")
    func monitorPorts() async throws {
        let dump = try ServerDump.parse("""
            Card #50
            \tName: alsa_card.pci-0000_00_1f.3
            \tDriver: alsa
            \tProfiles:
            \t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority: 6500, available: yes)
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output-lineout: Line Out (type: Line, priority: 9000, latency offset: 0 usec, available)
            \t\t\tPart of profile(s): output:analog-stereo
            Sink #53
            \tName: alsa_output.pci-0000_00_1f.3.analog-stereo
            \tDriver: PipeWire
            \tMonitor Source: alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
            \tProperties:
            \t\tdevice.name = "alsa_card.pci-0000_00_1f.3"
            \tPorts:
            \t\tanalog-output-lineout: Line Out (type: Line, priority: 9000, available)
            \tActive Port: analog-output-lineout
            Source #53
            \tName: alsa_output.pci-0000_00_1f.3.analog-stereo.monitor
            \tDriver: PipeWire
            \tMonitor of Sink: alsa_output.pci-0000_00_1f.3.analog-stereo
            \tProperties:
            \t\tdevice.class = "monitor"
            \tPorts:
            \t\tanalog-output-lineout: Line Out (type: Line, priority: 9000, available)
            \tActive Port: analog-output-lineout
            """)
        let server = SimulatedServer(dump: dump)
        let monitor = try #require(try await server.sources().first { $0.isMonitor })
        #expect(monitor.ports.isEmpty && monitor.activePortName == nil)
        let sink = try #require(try await server.sinks().first)
        #expect(sink.activePortName == "analog-output-lineout")
    }
}
