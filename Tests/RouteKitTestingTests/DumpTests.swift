import DumpReader
import Foundation
import PulseAudio
import RouteKit
import RouteKitTesting
import Testing
import TestSupport

@Suite("A simulated server from a real machine's dump")
struct DumpTests {
    /// `pactl info` defaults, the card of corpus file 07 (Jabra Elite 75t, PulseAudio 15) and
    /// its A2DP sink and monitor, as `pactl list` prints them.
    static let jabra = """
        Default Sink: bluez_sink.70_BF_92_C9_F5_D0.a2dp_sink
        Default Source: bluez_sink.70_BF_92_C9_F5_D0.a2dp_sink.monitor
        Card #20
        \tName: bluez_card.70_BF_92_C9_F5_D0
        \tDriver: module-bluez5-device.c
        \tOwner Module: 42
        \tProperties:
        \t\tdevice.description = "Jabra Elite 75t"
        \t\tdevice.string = "70:BF:92:C9:F5:D0"
        \t\tdevice.api = "bluez"
        \t\tdevice.class = "sound"
        \t\tdevice.bus = "bluetooth"
        \t\tdevice.form_factor = "headset"
        \t\tdevice.icon_name = "audio-headset-bluetooth"
        \tProfiles:
        \t\ta2dp_sink: High Fidelity Playback (A2DP Sink) (sinks: 1, sources: 0, priority: 40, available: yes)
        \t\thandsfree_head_unit: Handsfree Head Unit (HFP) (sinks: 1, sources: 1, priority: 30, available: yes)
        \t\toff: Off (sinks: 0, sources: 0, priority: 0, available: yes)
        \tActive Profile: a2dp_sink
        \tPorts:
        \t\theadset-output: Headset (type: Headset, priority: 0, latency offset: 0 usec, availability unknown)
        \t\t\tPart of profile(s): a2dp_sink, handsfree_head_unit
        \t\theadset-input: Headset (type: Headset, priority: 0, latency offset: 0 usec, availability unknown)
        \t\t\tPart of profile(s): handsfree_head_unit

        Sink #3
        \tState: SUSPENDED
        \tName: bluez_sink.70_BF_92_C9_F5_D0.a2dp_sink
        \tDescription: Jabra Elite 75t
        \tDriver: module-bluez5-device.c
        \tSample Specification: s16le 2ch 44100Hz
        \tChannel Map: front-left,front-right
        \tOwner Module: 42
        \tMute: no
        \tVolume: front-left: 65536 / 100% / 0.00 dB,   front-right: 65536 / 100% / 0.00 dB
        \t        balance 0.00
        \tBase Volume: 65536 / 100% / 0.00 dB
        \tMonitor Source: bluez_sink.70_BF_92_C9_F5_D0.a2dp_sink.monitor
        \tLatency: 0 usec, configured 0 usec
        \tFlags: HARDWARE DECIBEL_VOLUME LATENCY
        \tProperties:
        \t\tbluetooth.protocol = "a2dp_sink"
        \t\tdevice.description = "Jabra Elite 75t"
        \t\tdevice.api = "bluez"
        \t\tdevice.class = "sound"
        \t\tdevice.bus = "bluetooth"
        \t\tdevice.form_factor = "headset"
        \tPorts:
        \t\theadset-output: Headset (type: Headset, priority: 0, availability unknown)
        \tActive Port: headset-output
        \tFormats:
        \t\tpcm
        """

    @Test("cards, sinks, indexes and defaults come from the dump; a profile switch creates what PulseAudio would")
    func jabra() async throws {
        let server = SimulatedServer(dump: try ServerDump.parse(Self.jabra))
        try await expectConsistent(server)
        let card = try #require(try await server.card(named: "bluez_card.70_BF_92_C9_F5_D0"))
        #expect(card.index == 20)
        #expect(card.ownerModule == 42)
        let sink = try #require(try await server.sink(named: "bluez_sink.70_BF_92_C9_F5_D0.a2dp_sink"))
        #expect(sink.index == 3)
        #expect(sink.card == 20)
        #expect(sink.state == .idle)
        #expect(try await server.serverInfo().defaultSinkName == sink.name)

        let events = try await server.subscriptionEvents {
            try await server.setCardProfile(card.name, profile: "handsfree_head_unit")
        }
        let headset = try #require(try await server.sink(named: "bluez_sink.70_BF_92_C9_F5_D0.handsfree_head_unit"))
        let microphone = try #require(try await server.source(named: "bluez_source.70_BF_92_C9_F5_D0.handsfree_head_unit"))
        #expect(headset.activePortName == "headset-output")
        #expect(microphone.activePortName == "headset-input")
        #expect(headset.index == 4)
        #expect(events.first == .serverChange)
        #expect(events.last == .change(.card, 20))
        #expect(events.contains(.remove(.sink, 3)))
        #expect(events.contains(.new(.sink, 4)))
        #expect(events.contains(.new(.source, microphone.index)))
        #expect(try await server.serverInfo().defaultSourceName == microphone.name)
        try await expectConsistent(server)
    }

    /// The repository's corpus of real dumps (`Tests/Corpus`).
    static let corpusFiles = Corpus.names()

    @Test("every corpus dump makes a consistent server, through every profile of every card",
          arguments: corpusFiles)
    func corpusDump(file: String) async throws {
        let text = try String(contentsOf: Corpus.directory.appendingPathComponent(file), encoding: .utf8)
        let dump = try ServerDump.parse(text).deduplicated()
        let server = SimulatedServer(dump: dump)
        let names = Set(try await server.sinks().map(\.name))
        #expect(dump.sinks.allSatisfy { names.contains($0.name) }, "every dumped sink is there")
        try await expectConsistent(server, strict: false)
        for card in try await server.cards() where NameResolution.isValid(card.name) {
            for profile in card.profiles + [try #require(card.activeProfile)] {
                do {
                    try await server.setCardProfile(card.name, profile: profile.name)
                } catch let error as PulseError where error.code.rawValue == 25 {
                    #expect(!profile.isAvailable, "only an unavailable profile is refused")
                }
                try await expectConsistent(server, strict: false)
            }
        }
    }
}

/// The name check the simulated server applies to card names.
private enum NameResolution {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) }
    }
}
