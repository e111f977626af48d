import DumpReader
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: pactl across versions")
struct PactlVersionDumpTests {
    @Test("PulseAudio 0.9.10: *** headings, fields at the margin, no state")
    func veryOld() throws {
        let text = """
            *** Sink #0 ***
            Name: alsa_output.pci_8086_293e_sound_card_0_alsa_playback_0
            Driver: module-alsa-sink.c
            Description: ALSA PCM on front:0 (ALC889A Analog) via DMA
            Sample Specification: s16le 2ch 44100Hz
            Owner Module: 4
            Volume: 0: 100% 1: 100%
            Monitor Source: 0
            Latency: 23219 usec

            *** Source #0 ***
            Name: alsa_output.pci_8086_293e_sound_card_0_alsa_playback_0.monitor
            Driver: module-alsa-sink.c
            Description: Monitor Source of ALSA PCM on front:0 (ALC889A Analog) via DMA
            Owner Module: 4
            Volume: 0: 100% 1: 100%
            Monitor of Sink: 0
            """
        let dump = try ServerDump.parse(text)
        let sink = try #require(dump.sinks.first)
        #expect(sink.name == "alsa_output.pci_8086_293e_sound_card_0_alsa_playback_0")
        #expect(sink.driver == "module-alsa-sink.c" && sink.description.hasPrefix("ALSA PCM on front:0"))
        #expect(sink.volume.values == [65536, 65536] && sink.state == .unknown && sink.ownerModule == 4)
        #expect(dump.sources.map(\.index) == [0])
    }

    @Test("PulseAudio 1.x to 13: 'priority.' and ', available' port variants, cards without types")
    func middleAged() throws {
        let text = """
            Sink #1
            \tState: IDLE
            \tName: alsa_output.pci-0000_00_1b.0.analog-stereo
            \tDescription: Built-in Audio Analog Stereo
            \tPorts:
            \t\tanalog-output-speaker: Speakers (priority. 10000)
            \t\tanalog-output-headphones: Headphones (priority: 9000, not available)
            \t\tanalog-output-lineout: Line Out (priority: 9900, available)
            \tActive Port: analog-output-speaker
            Card #0
            \tName: alsa_card.pci-0000_00_1b.0
            \tDriver: module-alsa-card.c
            \tOwner Module: 4
            \tProfiles:
            \t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority. 6000)
            \tActive Profile: output:analog-stereo
            \tPorts:
            \t\tanalog-output-headphones: Headphones (priority: 9000, latency offset: 0 usec, not available)
            \t\t\tPart of profile(s): output:analog-stereo
            """
        let dump = try ServerDump.parse(text)
        let sink = try #require(dump.sinks.first)
        #expect(sink.ports.map(\.priority) == [10000, 9000, 9900])
        #expect(sink.ports.map(\.availability) == [.unknown, .unavailable, .available])
        #expect(sink.ports.map(\.type) == [.unknown, .unknown, .unknown])
        let card = try #require(dump.cards.first)
        #expect(card.profiles == [CardInfo.Profile(name: "output:analog-stereo", description: "Analog Stereo Output",
                                                   sinkCount: 1, sourceCount: 0, priority: 6000, isAvailable: true)])
        #expect(card.ports.first?.availability == .unavailable)
        #expect(card.ports.first?.profileNames == ["output:analog-stereo"])
    }

    @Test("PulseAudio 1.x lists no card ports: the card's sinks and sources give theirs, each a device")
    func cardsWithoutPorts() throws {
        // Corpus file 114 (PulseAudio 1.1), cut to the analog card's sink, source and card.
        let text = """
            Sink #1
            \tState: SUSPENDED
            \tName: alsa_output.pci-0000_00_1b.0.analog-stereo
            \tDescription: Internal Audio Analog Stereo
            \tDriver: module-alsa-card.c
            \tOwner Module: 5
            \tProperties:
            \t\talsa.card = "0"
            \t\tdevice.bus = "pci"
            \t\tdevice.form_factor = "internal"
            \tPorts:
            \t\tanalog-output: Analog Output (priority. 9900)
            \t\tanalog-output-headphones: Analog Headphones (priority. 9000)
            \tActive Port: analog-output
            \tFormats:
            \t\tpcm

            Source #2
            \tState: SUSPENDED
            \tName: alsa_input.pci-0000_00_1b.0.analog-stereo
            \tDescription: Internal Audio Analog Stereo
            \tDriver: module-alsa-card.c
            \tOwner Module: 5
            \tMonitor of Sink: n/a
            \tProperties:
            \t\talsa.card = "0"
            \t\tdevice.bus = "pci"
            \t\tdevice.form_factor = "internal"
            \tPorts:
            \t\tanalog-input-microphone-front: Front Microphone (priority. 8500)
            \t\tanalog-input-microphone: Analog Microphone (priority. 8700)
            \tActive Port: analog-input-microphone

            Card #1
            \tName: alsa_card.pci-0000_00_1b.0
            \tDriver: module-alsa-card.c
            \tOwner Module: 5
            \tProperties:
            \t\talsa.card = "0"
            \t\tdevice.bus = "pci"
            \t\tdevice.form_factor = "internal"
            \tProfiles:
            \t\toutput:analog-stereo+input:analog-stereo: Analog Stereo Duplex (sinks: 1, sources: 1, priority. 6060)
            \t\toff: Off (sinks: 0, sources: 0, priority. 0)
            \tActive Profile: output:analog-stereo+input:analog-stereo
            """
        let dump = try ServerDump.parse(text)
        let card = try #require(dump.cards.first)
        #expect(card.ports.map(\.name) == ["analog-output", "analog-output-headphones",
                                           "analog-input-microphone-front", "analog-input-microphone"])
        #expect(card.ports.map(\.direction) == [.output, .output, .input, .input])
        #expect(card.ports.allSatisfy { $0.profileNames == ["output:analog-stereo+input:analog-stereo"] })
        // The line out and the headphone jack are devices of their own, each of its kind, with the
        // microphones as their inputs; no device stands for the whole card.
        let kinds = Dictionary(dump.devices.map { ($0.id.rawValue, $0.kind) }, uniquingKeysWith: { first, _ in first })
        #expect(kinds["alsa_card.pci-0000_00_1b.0/analog-output"] == .external)
        #expect(kinds["alsa_card.pci-0000_00_1b.0/analog-output-headphones"] == .wiredHeadset)
        #expect(Set(dump.devices.compactMap(\.input?.port)) == ["analog-input-microphone-front", "analog-input-microphone"])
        #expect(dump.devices.first { $0.output?.port == "analog-output" }?.output?.deviceName == dump.sinks.first?.name)
        #expect(dump.devices.allSatisfy { $0.id.rawValue != "alsa_card.pci-0000_00_1b.0" })
    }

    @Test("pactl info gives the defaults; other sections are skipped")
    func infoAndOtherSections() throws {
        let text = """
            Server String: /run/user/1000/pulse/native
            Server Name: PulseAudio (on PipeWire 1.0.5)
            Default Sink: alsa_output.pci-0000_00_1f.3.analog-stereo
            Default Source: alsa_input.pci-0000_00_1f.3.analog-stereo

            Module #0
            \tName: libpipewire-module-rt
            \tArgument: {}
            \tUsage counter: n/a
            \tProperties:
            \t\tmodule.author = "Wim Taymans"

            Client #33
            \tDriver: PipeWire
            \tOwner Module: 2
            \tProperties:
            \t\tclient.api = "pipewire-pulse"

            Sink #52
            \tState: IDLE
            \tName: alsa_output.pci-0000_00_1f.3.analog-stereo

            Sink Input #80
            \tDriver: PipeWire
            \tSink: 52
            \tProperties:
            \t\tmedia.class = "Stream/Output/Audio"
            \t\tnode.name = "Firefox"

            Sample #0
            \tName: bell
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.sinks.map(\.name) == ["alsa_output.pci-0000_00_1f.3.analog-stereo"])
        #expect(dump.cards.isEmpty && dump.sources.isEmpty && dump.otherNodes.isEmpty)
        #expect(dump.defaultSinkName == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(dump.defaultSourceName == "alsa_input.pci-0000_00_1f.3.analog-stereo")
    }

    @Test("PipeWire UCM profile names with spaces, commas and parentheses")
    func ucmProfileNames() throws {
        let text = """
            Card #45
            \tName: alsa_card.pci-0000_00_1f.3-platform-skl_hda_dsp_generic
            \tProfiles:
            \t\tHiFi (HDMI1, HDMI2, Headphones, Mic1, Speaker): Play HiFi quality Music (sinks: 3, sources: 1, priority: 8000, available: yes)
            \t\tVoice Call: Make a phone call (sinks: 1, sources: 1, priority: 100, available: no)
            \tActive Profile: HiFi (HDMI1, HDMI2, Headphones, Mic1, Speaker)
            \tPorts:
            \t\t[Out] Headphones: Headphones (type: Headphones, priority: 200, latency offset: 0 usec, availability group: Headphone, available)
            \t\t\tPart of profile(s): HiFi (HDMI1, HDMI2, Headphones, Mic1, Speaker)
            """
        let card = try #require(try ServerDump.parse(text).cards.first)
        #expect(card.profiles.map(\.name) == ["HiFi (HDMI1, HDMI2, Headphones, Mic1, Speaker)", "Voice Call"])
        #expect(card.activeProfile?.sinkCount == 3)
        #expect(card.ports.first?.availabilityGroup == "Headphone")
        #expect(card.ports.first?.availability == .available)
    }
}
