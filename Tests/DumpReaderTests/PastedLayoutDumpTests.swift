import DumpReader
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: how pastes mangle the layout")
struct PastedLayoutDumpTests {
    @Test("an e-mail client stripped the indentation and wrapped long lines")
    func emailWrapped() throws {
        let text = """
            Sink #2 <https://example.org/issues/2>
            State: RUNNING
            Name: alsa_output.usb-Generic_USB_Audio-00.analog-stereo
            Description: Generic USB Audio Analog
            Stereo
            Driver: module-alsa-card.c
            Mute: no
            Volume: front-left: 39321 /  60% / -13.31 dB,
            front-right: 39321 /  60% / -13.31 dB
            balance 0.00
            Properties:
            device.product.name = "A very long product name that an e-mail client broke
            in two"
            sysfs.path =
            "/devices/pci0000:00/0000:00:14.0/usb3/3-9/sound/card2"
            Ports:
            analog-output-headphones: Headphones (type: Headphones, priority: 9900,
            availability group: Legacy 1, not available)
            analog-output: Analog Output (priority:
            9800)
            Active Port: analog-output

            Card #3
            Name: alsa_card.usb-Generic_USB_Audio-00
            Profiles:
            output:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority:
            6500, available: yes)
            Active Profile: output:analog-stereo
            Ports:
            analog-output-headphones: Headphones (priority: 9900, latency offset: 0
            usec)
            Properties:
            port.type = "headphones"
            Part of profile(s): output:analog-stereo,
            output:analog-stereo+input:analog-stereo
            """
        let dump = try ServerDump.parse(text)
        let sink = try #require(dump.sinks.first)
        #expect(sink.index == 2 && sink.state == .running)
        #expect(sink.description == "Generic USB Audio Analog Stereo")
        #expect(sink.volume.values == [39321, 39321])
        #expect(sink.properties["device.product.name"] == "A very long product name that an e-mail client broke in two")
        #expect(sink.properties["sysfs.path"] == "/devices/pci0000:00/0000:00:14.0/usb3/3-9/sound/card2")
        #expect(sink.ports.map(\.name) == ["analog-output-headphones", "analog-output"])
        #expect(sink.ports[0].availability == .unavailable && sink.ports[0].availabilityGroup == "Legacy 1")
        #expect(sink.ports[1].priority == 9800)
        #expect(sink.activePortName == "analog-output")

        let card = try #require(dump.cards.first)
        #expect(card.profiles.map(\.priority) == [6500])
        #expect(card.activeProfileName == "output:analog-stereo")
        #expect(card.ports.count == 1)
        #expect(card.ports.first?.type == .headphones)
        #expect(card.ports.first?.properties == ["port.type": "headphones"])
        #expect(card.ports.first?.profileNames == ["output:analog-stereo", "output:analog-stereo+input:analog-stereo"])
    }

    @Test("Markdown fences, quote marks, a pacmd prompt, CR LF line ends and mixed indentation")
    func decorations() throws {
        let text = "Here is my output:\r\n```\r\n> Sink #0\r\n>  \tName: null\r\n>  \tDescription: Null Output\r\n"
            + ">  \tProperties:\r\n>  \t    device.class = \"abstract\"\r\n```\r\n>>> 1 source(s) available.\r\n"
            + "  * index: 5\r\n\tname: <null.monitor>\r\n\tmonitor_of: 0\r\n"
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["null"])
        #expect(dump.sinks.first?.properties == ["device.class": "abstract"])
        #expect(dump.sources.map(\.name) == ["null.monitor"])
        #expect(dump.sources.first?.monitorOfSinkName == "null")
    }

    @Test("blocks that are not separated by blank lines, and a heading missing from the paste")
    func blockBoundaries() throws {
        let text = """
                    Name: bluez_card.00_11_22_33_44_55
                    Driver: module-bluez5-device.c
                    Profiles:
                            a2dp_sink: High Fidelity Playback (A2DP Sink) (sinks: 1, sources: 0, priority: 40, available: yes)
                    Active Profile: a2dp_sink
            Sink #1
            \tName: a
            Sink #2
            \tName: b
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.cards.map(\.name) == ["bluez_card.00_11_22_33_44_55"])
        #expect(dump.cards.first?.index == ServerDump.unknownIndex)
        #expect(dump.sinks.map(\.name) == ["a", "b"])
    }

    @Test("an elision mark a person left ('...', '…', '[...]') keeps the block it sits in, even at column 0")
    func elisionMarks() throws {
        let text = """
            Card #0
            \tName: alsa_card.pci-0000_00_1f.3
            \tDriver: module-alsa-card.c
            \tProperties:
            ...
            \tProfiles:
            […]
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-input-internal-mic: Internal Microphone (priority: 8900, latency offset: 0 usec)
            \t\t\tPart of profile(s): input:analog-stereo
            ….
            \t\tanalog-output-speaker: Speakers (priority: 10000, latency offset: 0 usec)
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.cards.map(\.name) == ["alsa_card.pci-0000_00_1f.3"])
        #expect(dump.cards.first?.ports.map(\.name) == ["analog-input-internal-mic", "analog-output-speaker"])
        #expect(dump.cards.first?.activeProfileName == "output:analog-stereo")
    }

    @Test("a line of two dots or of dots and words is text, not an elision mark")
    func notElisionMarks() throws {
        let text = """
            Sink #0
            \tName: a
            \tDescription: ..
            \tDriver: ... module
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.first?.description == "..")
        #expect(dump.sinks.first?.driver == "... module")
    }

    @Test("a dump of several captures lists a device each time; deduplicated keeps the last")
    func captures() throws {
        let text = """
            Card #0
            \tName: alsa_card.x
            \tActive Profile: off
            # ---- second capture
            Card #0
            \tName: alsa_card.x
            \tActive Profile: HiFi
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.cards.map(\.activeProfileName) == ["off", "HiFi"])
        #expect(dump.deduplicated().cards.map(\.activeProfileName) == ["HiFi"])
    }

    @Test("a monitor source cut before its 'Monitor of Sink' line is still a monitor, and no device")
    func monitorCutBeforeItsField() throws {
        let text = """
            Source #0
                    State: IDLE
                    Name: alsa_output.usb-Vendor_Speakerphone-00.analog-stereo.monitor
                    Description: Monitor of Speakerphone Analog Stereo
                    Driver: module-alsa-card.c
                    Mute: no
                    Base Volume: 65536 / 100% / 0.00 dB

            Source #1
                    Name: alsa_input.usb-Vendor_Speakerphone-00.analog-stereo
                    Driver: module-alsa-card.c
                    Monitor of Sink: n/a

            Source #2
                    Name: capture.monitor
                    Ports:
                            analog-input-mic: Microphone (priority: 8700)
                    Active Port: analog-input-mic
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sources.map(\.monitorOfSinkName) == ["alsa_output.usb-Vendor_Speakerphone-00.analog-stereo", nil, nil])
        #expect(dump.sources.map(\.isMonitor) == [true, false, false])
        #expect(!dump.devices.contains { $0.input?.deviceName == dump.sources[0].name })
    }
    @Test("a forum pushed a pacmd sink's ports heading to column 0: the ports stay the sink's")
    func portsHeadingLeftOfItsSink() throws {
        // Corpus file 84: the heading was joined to the trailing spaces of the icon line before it.
        let text = """
            >>> 2 sink(s) available.
                index: 1
                    name: <alsa_output.usb-Headset-00-Headset.analog-stereo>
                    driver: <module-alsa-card.c>
                    properties:
                            device.bus = "usb"
                            device.form_factor = "headset"
                            device.icon_name = "audio-headset-usb"
            ports:
                            analog-output;output-bass-boost-on: Analog Output / Bass Boost (priority 9900)
                            analog-output-speaker;output-bass-boost-off: Analog Speakers / No Bass Boost (priority 10010)
                    active port: <analog-output-speaker;output-bass-boost-off>
              * index: 2
                    name: <alsa_output.pci-0000_00_1b.0.analog-stereo>
                    driver: <module-alsa-card.c>
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["alsa_output.usb-Headset-00-Headset.analog-stereo", "alsa_output.pci-0000_00_1b.0.analog-stereo"])
        let headset = try #require(dump.sinks.first)
        #expect(headset.ports.map(\.name) == ["analog-output;output-bass-boost-on", "analog-output-speaker;output-bass-boost-off"])
        #expect(headset.activePortName == "analog-output-speaker;output-bass-boost-off")
        #expect(headset.properties["device.form_factor"] == "headset")
        #expect(dump.sinks[1].ports.isEmpty)
    }
    @Test("an Obsidian callout quotes every line with a bare '>': the node inside still reads")
    func calloutQuotedNode() throws {
        // Corpus file 98: `>id 60, ...` has no space after the mark, the property lines do.
        let text = """
            > [!example]-
            >
            >```sh
            >id 60, type PipeWire:Interface:Node
            >    api.bluez5.profile = "a2dp-sink"
            >    device.api = "bluez5"
            >  * media.class = "Audio/Sink"
            >  * node.name = "bluez_output.80_C3_BA_70_C8_30.1"
            >```
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["bluez_output.80_C3_BA_70_C8_30.1"])
        #expect(dump.sinks.first?.properties["device.api"] == "bluez5")
    }

    @Test("a port's next 'properties:' heading joined after its attribute group leaves the port's attributes readable")
    func joinedPropertiesHeading() throws {
        // Corpus file 86: the last port of a pacmd card, its heading pulled onto its line.
        let text = """
            index: 1
            name: <bluez_card.61_21_34_24_4F_20>
            driver: <module-bluez5-device.c>
            ports:
                headset-output: Headset (priority 0, latency offset 0 usec, available: unknown)
                    properties:

                headset-input: Headset (priority 0, latency offset 0 usec, available: no)         properties:
            """
        let card = try #require(ServerDump.parse(text).cards.first)
        #expect(card.ports.map(\.name) == ["headset-output", "headset-input"])
        #expect(card.ports.last?.description == "Headset")
        #expect(card.ports.last?.availability == .unavailable)
    }
    @Test("a listing kept as comments in a script ('\\t# ' before every line) still reads; '# ' at the margin is a comment")
    func commentedOutListing() throws {
        // Corpus file 117: `pacmd list-sinks` pasted into a shell function as comments.
        let text = """
            # expected: nothing here is part of the listing
            bluetooth ()
            {
            \tpacmd list-sinks

            \t# index: 3
            \t# name: <bluez_sink.20_16_03_17_4D_E3.headset_head_unit>
            \t# driver: <module-bluez5-device.c>
            \t# state: SUSPENDED
            \t# sample spec: s16le 1ch 8000Hz
            \t# card: 3 <bluez_card.20_16_03_17_4D_E3>
            \t# properties:
            \t# \tbluetooth.protocol = "headset_head_unit"
            \t# \tdevice.bus = "bluetooth"
            \t# \tdevice.form_factor = "headset"
            \t# ports:
            \t# \theadset-output: Headset (priority 0, latency offset 0 usec, available: unknown)
            \t# \t\tproperties:
            \t# active port: <headset-output>

            \tpacmd set-card-profile 3 a2dp_sink
            }
            """
        let dump = try ServerDump.parse(text)
        let sink = try #require(dump.sinks.first)
        #expect(dump.sinks.count == 1)
        #expect(sink.name == "bluez_sink.20_16_03_17_4D_E3.headset_head_unit")
        #expect(sink.properties["device.form_factor"] == "headset")
        #expect(sink.ports.map(\.name) == ["headset-output"] && sink.activePortName == "headset-output")
        #expect(dump.devices.map(\.kind) == [.bluetooth])
    }
}
