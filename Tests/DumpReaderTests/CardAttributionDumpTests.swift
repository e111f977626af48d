import DumpReader
import PulseAudio
import RouteKit
import Testing

/// A sink pasted without its `Card:` line belongs to the card the paste shows, when it names
/// that card another way; its ports are then its card's ports, listed once.
@Suite("Dump: a sink without its Card line")
struct CardAttributionDumpTests {
    /// A card with a speaker and a headphones port, then a sink block with no `Card:` line
    /// whose properties are `properties`, named `sinkName`.
    private func dump(sinkName: String = "output-0", cardProperties: [String] = [], properties: [String]) throws -> ServerDump {
        let cardLines = cardProperties.map { "\t\t\($0)" }.joined(separator: "\n")
        let sinkLines = properties.map { "\t\t\($0)" }.joined(separator: "\n")
        return try ServerDump.parse("""
            Card #46
            \tName: alsa_card.pci-0000_00_1f.3
            \tDriver: alsa
            \tProperties:
            \t\tdevice.description = "Built-in Audio"
            \t\tdevice.bus = "pci"
            \(cardLines)
            \tProfiles:
            \t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority: 6500, available: yes)
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output-speaker: Speakers (type: Speaker, priority: 10000, availability unknown)
            \t\t\tPart of profile(s): output:analog-stereo
            \t\tanalog-output-headphones: Headphones (type: Headphones, priority: 9900, availability unknown)
            \t\t\tPart of profile(s): output:analog-stereo

            Sink #47
            \tState: RUNNING
            \tName: \(sinkName)
            \tDescription: Built-in Audio Analog Stereo
            \tDriver: PipeWire
            \tProperties:
            \(sinkLines)
            \tPorts:
            \t\tanalog-output-speaker: Speakers (type: Speaker, priority: 10000, not available)
            \t\tanalog-output-headphones: Headphones (type: Headphones, priority: 9900, available)
            \tActive Port: analog-output-headphones
            """)
    }

    /// Checks the sink went to card 46 and the devices are the card's two ports, once each.
    private func expectAttributed(_ dump: ServerDump, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(dump.sinks.first?.card == 46, sourceLocation: sourceLocation)
        let devices = dump.devices
        #expect(devices.map(\.id.rawValue).sorted()
                == ["alsa_card.pci-0000_00_1f.3/analog-output-headphones", "alsa_card.pci-0000_00_1f.3/analog-output-speaker"],
                sourceLocation: sourceLocation)
        #expect(devices.allSatisfy { $0.output?.deviceName == dump.sinks.first?.name }, sourceLocation: sourceLocation)
    }

    @Test("device.name names the card")
    func deviceName() throws {
        expectAttributed(try dump(properties: ["device.name = \"alsa_card.pci-0000_00_1f.3\""]))
    }

    @Test("device.id is the card's object.id")
    func deviceID() throws {
        expectAttributed(try dump(cardProperties: ["object.id = \"45\""], properties: ["device.id = \"45\""]))
    }

    @Test("the same ALSA card number")
    func alsaCard() throws {
        expectAttributed(try dump(cardProperties: ["api.alsa.card = \"0\""], properties: ["alsa.card = \"0\""]))
    }

    @Test("the same sysfs path")
    func sysfsPath() throws {
        let path = "sysfs.path = \"/devices/pci0000:00/0000:00:1f.3/sound/card0\""
        expectAttributed(try dump(cardProperties: [path], properties: [path]))
    }

    @Test("the card's name inside the sink's, with a profile after it")
    func nameStem() throws {
        expectAttributed(try dump(sinkName: "alsa_output.pci-0000_00_1f.3.analog-stereo", properties: ["media.class = \"Audio/Sink\""]))
    }

    @Test("a stem that only starts the same names another card")
    func nameStemNeedsTheWholeStem() {
        #expect(CardAttributionProbe.carriesStem("alsa_output.pci-0000_00_1f.3.analog-stereo", of: "alsa_card.pci-0000_00_1f.3"))
        #expect(!CardAttributionProbe.carriesStem("alsa_output.pci-0000_00_1f.3-platform-sof.stereo", of: "alsa_card.pci-0000_00_1f.3"))
    }

    @Test("a sink that names no card stays a device of its own")
    func noCard() throws {
        let dump = try dump(properties: ["media.class = \"Audio/Sink\""])
        #expect(dump.sinks.first?.card == nil)
        #expect(dump.devices.contains { $0.card == nil })
    }
}

/// The name rule, through a dump of one card and one sink.
enum CardAttributionProbe {
    static func carriesStem(_ sinkName: String, of cardName: String) -> Bool {
        let text = """
            Card #3
            \tName: \(cardName)
            \tDriver: alsa

            Sink #4
            \tName: \(sinkName)
            \tDescription: Sink
            \tDriver: PipeWire
            """
        return (try? ServerDump.parse(text))?.sinks.first?.card == 3
    }
}
