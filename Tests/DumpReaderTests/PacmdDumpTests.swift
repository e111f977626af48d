import DumpReader
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: pacmd")
struct PacmdDumpTests {
    /// Parts of a `pacmd info` (PulseAudio 15): modules and clients are skipped, defaults kept,
    /// monitor indices resolved to names.
    static let info = """
        Memory blocks currently allocated: 1, size: 63.9 KiB.
        Default sample spec: s16le 2ch 44100Hz
        Default sink name: alsa_output.pci-0000_00_1b.0.analog-stereo
        Default source name: alsa_input.pci-0000_00_1b.0.analog-stereo
        2 module(s) loaded.
            index: 0
        \tname: <module-device-restore>
        \targument: <>
        \tused: -1
        \tload once: yes
        \tproperties:
        \t\tmodule.author = "Lennart Poettering"
        1 sink(s) available.
          * index: 1
        \tname: <alsa_output.pci-0000_00_1b.0.analog-stereo>
        \tdriver: <module-alsa-card.c>
        \tflags: HARDWARE HW_MUTE_CTRL HW_VOLUME_CTRL DECIBEL_VOLUME LATENCY DYNAMIC_LATENCY
        \tstate: RUNNING
        \tsuspend cause: (none)
        \tpriority: 9039
        \tvolume: front-left: 26214 /  40% / -23.88 dB,   front-right: 26214 /  40% / -23.88 dB
        \t        balance 0.00
        \tbase volume: 65536 / 100% / 0.00 dB
        \tvolume steps: 65537
        \tmuted: yes
        \tcurrent latency: 26.34 ms
        \tmonitor source: 2
        \tsample spec: s16le 2ch 44100Hz
        \tchannel map: front-left,front-right
        \t             Stereo
        \tused by: 1
        \tlinked by: 1
        \tcard: 0 <alsa_card.pci-0000_00_1b.0>
        \tmodule: 7
        \tproperties:
        \t\tdevice.description = "Built-in Audio Analog Stereo"
        \t\tdevice.form_factor = "internal"
        \tports:
        \t\tanalog-output-speaker: Speakers (priority 10000, latency offset 0 usec, available: unknown)
        \t\t\tproperties:
        \t\t\t\tdevice.icon_name = "audio-speakers"
        \t\tanalog-output-headphones: Headphones (priority 9900, latency offset 0 usec, available: no)
        \t\t\tproperties:
        \t\t\t\t
        \tactive port: <analog-output-speaker>
        2 source(s) available.
            index: 2
        \tname: <alsa_output.pci-0000_00_1b.0.analog-stereo.monitor>
        \tdriver: <module-alsa-card.c>
        \tstate: RUNNING
        \tmuted: no
        \tmonitor_of: 1
        \tcard: 0 <alsa_card.pci-0000_00_1b.0>
        \tmodule: 7
        \tproperties:
        \t\tdevice.description = "Monitor of Built-in Audio Analog Stereo"
        \t\tdevice.class = "monitor"
          * index: 3
        \tname: <alsa_input.pci-0000_00_1b.0.analog-stereo>
        \tdriver: <module-alsa-card.c>
        \tstate: SUSPENDED
        \tvolume: front-left: 65536 / 100% / 0.00 dB,   front-right: 65536 / 100% / 0.00 dB
        \tmuted: no
        \tcard: 0 <alsa_card.pci-0000_00_1b.0>
        \tmodule: 7
        \tproperties:
        \t\tdevice.description = "Built-in Audio Analog Stereo"
        \tports:
        \t\tanalog-input-mic: Microphone (priority 8700, latency offset 0 usec, available: yes)
        \t\t\tproperties:
        \t\t\t\t
        \tactive port: <analog-input-mic>
        1 card(s) available.
            index: 0
        \tname: <alsa_card.pci-0000_00_1b.0>
        \tdriver: <module-alsa-card.c>
        \towner module: 7
        \tproperties:
        \t\talsa.card = "0"
        \tprofiles:
        \t\toutput:analog-stereo+input:analog-stereo: Analog Stereo Duplex (priority 6565, available: unknown)
        \t\toutput:analog-stereo: Analog Stereo Output (priority 6500, available: no)
        \t\toff: Off (priority 0, available: yes)
        \tactive profile: <output:analog-stereo+input:analog-stereo>
        \tsinks:
        \t\talsa_output.pci-0000_00_1b.0.analog-stereo/#1: Built-in Audio Analog Stereo
        \tsources:
        \t\talsa_input.pci-0000_00_1b.0.analog-stereo/#3: Built-in Audio Analog Stereo
        \tports:
        \t\tanalog-output-speaker: Speakers (priority 10000, latency offset 0 usec, available: unknown)
        \t\t\tproperties:
        \t\t\t\tdevice.icon_name = "audio-speakers"
        \t\tanalog-input-mic: Microphone (priority 8700, latency offset -1500 usec, available: yes)
        \t\t\tproperties:
        \t\t\t\t
        1 client(s) logged in.
            index: 4
        \tdriver: <protocol-native.c>
        \towner module: 9
        \tproperties:
        \t\tapplication.name = "pacmd"
        """

    @Test("pacmd info: sinks, sources, cards and defaults; modules and clients skipped")
    func info() throws {
        let dump = try ServerDump.parse(Self.info)
        #expect(dump.defaultSinkName == "alsa_output.pci-0000_00_1b.0.analog-stereo")
        #expect(dump.defaultSourceName == "alsa_input.pci-0000_00_1b.0.analog-stereo")

        let sink = try #require(dump.sinks.first)
        #expect(dump.sinks.count == 1)
        #expect(sink.index == 1 && sink.name == "alsa_output.pci-0000_00_1b.0.analog-stereo")
        #expect(sink.description == "Built-in Audio Analog Stereo" && sink.driver == "module-alsa-card.c")
        #expect(sink.state == .running && sink.isMuted && sink.volume.values == [26214, 26214])
        #expect(sink.card == 0 && sink.ownerModule == 7)
        #expect(sink.monitorSourceName == "alsa_output.pci-0000_00_1b.0.analog-stereo.monitor")
        #expect(sink.ports.map(\.availability) == [.unknown, .unavailable])
        #expect(sink.ports.map(\.priority) == [10000, 9900])
        #expect(sink.ports.map(\.type) == [.unknown, .unknown])
        #expect(sink.activePortName == "analog-output-speaker")

        #expect(dump.sources.map(\.name) == ["alsa_output.pci-0000_00_1b.0.analog-stereo.monitor",
                                             "alsa_input.pci-0000_00_1b.0.analog-stereo"])
        #expect(dump.sources[0].monitorOfSinkName == "alsa_output.pci-0000_00_1b.0.analog-stereo")
        #expect(dump.sources[1].monitorOfSinkName == nil)
        #expect(dump.sources[1].ports.first?.availability == .available)
        #expect(dump.sources[1].activePortName == "analog-input-mic")

        let card = try #require(dump.cards.first)
        #expect(dump.cards.count == 1)
        #expect(card.name == "alsa_card.pci-0000_00_1b.0" && card.ownerModule == 7 && card.index == 0)
        #expect(card.properties == ["alsa.card": "0"])
        #expect(card.profiles.map(\.isAvailable) == [true, false, true])
        #expect(card.profiles.map(\.sinkCount) == [1, 1, 0])
        #expect(card.profiles.map(\.sourceCount) == [1, 0, 0])
        #expect(card.activeProfileName == "output:analog-stereo+input:analog-stereo")
        #expect(card.ports.map(\.name) == ["analog-output-speaker", "analog-input-mic"])
        #expect(card.ports.map(\.direction) == [.output, .input])
        #expect(card.ports[0].properties == ["device.icon_name": "audio-speakers"])
        #expect(card.ports[1].latencyOffset == -1500 && card.ports[1].availability == .available)
    }

    @Test("PulseAudio 0.9 pacmd: percentage volumes, ports without availability")
    func old() throws {
        let text = """
            >>> 1 sink(s) available.
              * index: 0
                    name: <alsa_output.pci-0000_00_1b.0.analog-stereo>
                    volume: 0:  25% 1:  25%
                            0: -36,01 dB 1: -36,01 dB
                    base volume:  86%
                                 -4,00 dB
                    muted: no
                    ports:
                            analog-output: Analog Output (priority 9900)
                            analog-output-speaker;output-bass-boost-on: Analog Speakers / Bass Boost (priority 10000)
                    active port: <analog-output-speaker;output-bass-boost-on>
            """
        let sink = try #require(try ServerDump.parse(text).sinks.first)
        #expect(sink.volume.values == [16384, 16384])
        #expect(sink.baseVolume == 56361)
        #expect(sink.ports.map(\.name) == ["analog-output", "analog-output-speaker;output-bass-boost-on"])
        #expect(sink.ports.map(\.availability) == [.unknown, .unknown])
        #expect(sink.activePortName == "analog-output-speaker;output-bass-boost-on")
    }
}
