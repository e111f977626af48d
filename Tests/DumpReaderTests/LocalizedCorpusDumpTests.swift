import DumpReader
import PulseAudio
import RouteKit
import Testing

/// Real dumps that carry their own second reading: a listing pasted twice, once in the
/// user's language and once as the tool printed it untranslated, or a localised listing whose
/// field names decide what is read. Nothing here is made up: each text is a corpus file.
@Suite("Dump: localised corpus dumps read as the English ones")
struct LocalizedCorpusDumpTests {
    @Test("French pactl and English pacmd of the same sink give the same ports, active port and kinds")
    func frenchPactlMatchesPacmd() throws {
        // Corpus file 59: `pactl list sinks` in French (`Destination #0`, `Ports :`, `Port actif :`),
        // then `pacmd list-sinks` of the same sink, pasted in the same post.
        let corpus = try CorpusFile.load(Self.file(numbered: "59"))
        let halves = try #require(Self.split(corpus.dump, before: "1 sink(s) available."))
        let french = try #require(ServerDump.parse(halves.first).sinks.first)
        let english = try #require(ServerDump.parse(halves.second).sinks.first)

        #expect(french.name == english.name)
        #expect(french.ports.map(\.name) == english.ports.map(\.name))
        #expect(french.activePortName == "analog-output-headphones")
        #expect(french.activePortName == english.activePortName)
        #expect(Self.kinds(of: french) == Self.kinds(of: english))
        #expect(Self.kinds(of: french) == ["analog-output-lineout": .external, "analog-output-headphones": .wiredHeadset])
    }

    @Test("Italian pactl of PulseAudio 1.1: Porte, Porta attiva and Profilo attivo are read")
    func italianFieldNames() throws {
        // Corpus file 144: `Sink #2` whose ports are under `Porte:` and active one under `Porta
        // attiva:`, two `Scheda #` cards whose ports carry `priorità` and `Parte dei profili:`.
        let corpus = try CorpusFile.load(Self.file(numbered: "144"))
        let dump = try ServerDump.parse(corpus.dump)

        let sink = try #require(dump.sinks.first)
        #expect(sink.ports.map(\.name) == ["iec958-stereo-output"])
        #expect(sink.activePortName == "iec958-stereo-output")
        #expect(dump.sources.map(\.monitorOfSinkName) == [sink.name])

        let analog = try #require(dump.cards.first { $0.name == "alsa_card.pci-0000_00_1b.0" })
        #expect(analog.activeProfileName == "output:iec958-stereo")
        #expect(analog.ports.map(\.name) == [
            "analog-output", "analog-output-headphones", "analog-input-microphone-front",
            "analog-input-microphone-rear", "analog-input-linein", "iec958-stereo-input", "iec958-stereo-output",
        ])
        let headphones = try #require(analog.ports.first { $0.name == "analog-output-headphones" })
        #expect(headphones.profileNames == ["output:analog-stereo", "output:analog-stereo+input:analog-stereo",
                                            "output:analog-stereo+input:iec958-stereo"])
        #expect(DeviceClassifier.classify(ClassificationEvidence(card: analog, port: headphones)) == .wiredHeadset)

        let hdmi = try #require(dump.cards.first { $0.name == "alsa_card.pci-0000_01_00.1" })
        #expect(hdmi.activeProfileName == "off")
        #expect(hdmi.ports.count == 4)
    }

    @Test("Chinese pacmd: localised port descriptions leave the port names to decide")
    func chinesePortDescriptions() throws {
        // Corpus file 145: `线缆输出` (line out), `扬声器` (speaker), `模拟耳机` (headphones).
        let corpus = try CorpusFile.load(Self.file(numbered: "145"))
        let dump = try ServerDump.parse(corpus.dump)
        let sink = try #require(dump.sinks.first { $0.name == "alsa_output.pci-0000_00_1f.3.analog-stereo" })

        #expect(sink.activePortName == "analog-output-headphones")
        #expect(sink.ports.map(\.availability) == [.unavailable, .unavailable, .available])
        #expect(Self.kinds(of: sink) == ["analog-output-lineout": .external, "analog-output-speaker": .speakerphone,
                                         "analog-output-headphones": .wiredHeadset])
    }

    /// The corpus file whose name starts with `number_`.
    private static func file(numbered number: String) throws -> String {
        try #require(CorpusFile.names().first { $0.hasPrefix(number + "_") })
    }

    /// `text` cut before the first line that is `marker`, nil when there is none.
    private static func split(_ text: String, before marker: String) -> (first: String, second: String)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let cut = lines.firstIndex(where: { $0.drop(while: { $0 == " " || $0 == "\t" }) == marker }) else {
            return nil
        }
        return (lines[..<cut].joined(separator: "\n"), lines[cut...].joined(separator: "\n"))
    }

    /// What the classifier calls each of `sink`'s ports.
    private static func kinds(of sink: SinkInfo) -> [String: AudioDeviceKind] {
        Dictionary(uniqueKeysWithValues: sink.ports.map {
            ($0.name, DeviceClassifier.classify(ClassificationEvidence(sink: sink, port: $0)))
        })
    }
}
