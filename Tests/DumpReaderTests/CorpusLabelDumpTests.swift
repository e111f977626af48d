import DumpReader
import Testing

@Suite("Dump: corpus labels")
struct CorpusLabelDumpTests {
    @Test("a port label with owner, kind and availability")
    func port() throws {
        let expectation = try #require(Expectation.parse(
            "port alsa_card.pci-0000_00_1f.3:analog-output-speaker -> speakerphone [avail=unknown]"))
        #expect(expectation.kind == .port && expectation.owner == "alsa_card.pci-0000_00_1f.3")
        #expect(expectation.name == "analog-output-speaker" && expectation.expectedKind == "speakerphone")
        #expect(expectation.availabilities == [.unknown] && expectation.comment == nil)
    }

    @Test("port names with spaces and semicolons, remarks, mixed availabilities")
    func awkwardPorts() throws {
        let ucm = try #require(Expectation.parse("[UCM listing] port alsa_card.x:[Out] HDMI3 -> other [avail=no]"))
        #expect(ucm.remark == "UCM listing" && ucm.name == "[Out] HDMI3" && ucm.availabilities == [.no])
        let old = try #require(Expectation.parse("port alsa_output.x:analog-output;output-bass-boost-on -> speakerphone [avail=n/a]"))
        #expect(old.name == "analog-output;output-bass-boost-on" && old.availabilities == [.notPrinted])
        let both = try #require(Expectation.parse("port bluez_card.x:handsfree-output -> bluetooth [avail=n/a in pactl, unknown in pacmd]"))
        #expect(both.availabilities == [.notPrinted, .unknown])
        let slashed = try #require(Expectation.parse("port bluez_sink.x:handsfree-output -> bluetooth [avail=unknown (pacmd) / n/a (pactl)]"))
        #expect(slashed.availabilities == [.unknown, .notPrinted])
    }

    @Test("sink, node and metadata labels, with ids and comments")
    func others() throws {
        let sink = try #require(Expectation.parse("sink bluez_output.F4:29:67:BA:9A:5E -> bluetooth"))
        #expect(sink.kind == .sink && sink.name == "bluez_output.F4:29:67:BA:9A:5E" && sink.id == nil)
        let cut = try #require(Expectation.parse(
            "sink (id 44, node.name cut off, description 'Speaker + Headphones') -> speakerphone (AMBIGUOUS: both)"))
        #expect(cut.id == 44 && cut.expectedKind == "speakerphone" && cut.comment == "(AMBIGUOUS: both)")
        let node = try #require(Expectation.parse("node id 41 (object.path alsa:pcm:2:iec958:2:playback) -> other"))
        #expect(node.kind == .node && node.id == 41)
        let metadata = try #require(Expectation.parse("metadata default.audio.sink alsa_output.x.iec958-stereo -> other"))
        #expect(metadata.name == "default.audio.sink" && metadata.value == "alsa_output.x.iec958-stereo")
        let monitor = try #require(Expectation.parse(
            "source alsa_output.x.monitor -> other (its listed ports mirror the sink: speaker [avail=unknown] - still other)"))
        #expect(monitor.availabilities.isEmpty && monitor.comment?.hasPrefix("(its listed") == true)
    }

    @Test("the expected header splits at ' ; ' only")
    func list() {
        let entries = Expectation.parseList("port a:x;y -> other [avail=n/a] ; sink b -> other ; junk")
        #expect(entries.map(\.name) == ["x;y", "b"])
    }

    @Test("a corpus file splits into headers and dump")
    func corpusFile() {
        let file = CorpusFile.split(name: "x.txt", text: "# server: pulseaudio\n# expected: sink a -> other\nSink #0\n\tName: a\n")
        #expect(file.headers == ["server": "pulseaudio", "expected": "sink a -> other"])
        #expect(file.dump == "Sink #0\n\tName: a\n")
        #expect(file.expectations.map(\.name) == ["a"])
    }
}
