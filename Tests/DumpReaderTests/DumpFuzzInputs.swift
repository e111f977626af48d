import Foundation
import PropertyBased
import TestSupport

/// Generated dumps for the fuzz tests: pieces of every format the reader knows (headings,
/// fields, properties, ports, `pacmd` and PipeWire lines, JSON), hostile pieces (brackets,
/// quotes, escapes, control characters, huge numbers), random bytes, and real corpus dumps
/// cut and spliced at random places.
enum DumpFuzzInputs {
    /// Lines and tokens of the formats the reader reads, and of what breaks readers.
    static let pieces: [String] = [
        "Sink #3\n", "Source #1\n", "Card #12\n", "Sink Input #4\n", "Module #7\n", "Puits n°2\n",
        "\tState: RUNNING\n", "\tName: alsa_output.pci-0000_00_1f.3.analog-stereo\n", "\tName: bluez_card.00_11\n",
        "\tDescription: Built-in Audio\n", "\tDriver: module-alsa-card.c\n", "\tCard: 12\n", "\tCard: n/a\n",
        "\tMonitor Source: x.monitor\n", "\tMonitor of Sink: x\n", "\tVolume: front-left: 65536 / 100% / 0.00 dB\n",
        "\tProperties:\n", "\t\tdevice.bus = \"usb\"\n", "\t\tdevice.form_factor = \"headset\"\n",
        "\t\tdevice.name = \"alsa_card.pci-0000_00_1f.3\"\n", "\t\talsa.card = \"0\"\n", "\t\tobject.id = \"45\"\n",
        "\t\tdevice.id = \"45\"\n", "\t\tmedia.class = \"Audio/Sink\"\n", "\t\tnode.name = \"n\"\n",
        "\t\tdevice.description = \"unterminated\n", "\tPorts:\n",
        "\t\tanalog-output-speaker: Speakers (type: Speaker, priority: 100, availability group: Legacy 1, availability unknown)\n",
        "\t\tanalog-output;output-bass-boost-on: Analog / Bass Boost (priority 9900)\n",
        "\t\t[Out] Speaker: Speaker (type: Speaker, priority: 100, not available)\n",
        "\t\t\tPart of profile(s): output:analog-stereo, output:analog-stereo+input:analog-stereo\n",
        "\tActive Port: analog-output-speaker\n", "\tProfiles:\n",
        "\t\toutput:analog-stereo: Analog Stereo Output (sinks: 1, sources: 0, priority: 6500, available: yes)\n",
        "\tActive Profile: output:analog-stereo\n", ">>> 2 sink(s) available.\n", "  * index: 0\n", "    index: 1\n",
        "\tname: <alsa_output.x>\n", "\tcard: 0 <alsa_card.x>\n", "\tactive port: <analog-output>\n",
        "\tports:\n", "\t\tanalog-output: Analog Output (priority 9900, latency offset 0 usec, available: unknown)\n",
        "id 41, type PipeWire:Interface:Node/3\n", "\tid: 41\n", "\ttype: PipeWire:Interface:Node/3\n",
        "Default Sink: alsa_output.x\n", "Default Source: x\n", "# comment\n", "> quoted\n", "\n", "\n\n", "\r\n", "\r",
        "\t", "    ", "        ", "{", "}", "[", "]", "[{", "\"", ",", ":", "=", "(", ")", "<", ">", "\\", "\\u12", "\\ud800",
        "\"media.class\": \"Audio/Sink\", ", "\"node.name\": \"n\", ", "\"type\": \"PipeWire:Interface:Node\", ",
        "\"type\": \"PipeWire:Interface:Device\", ", "\"props\": {", "\"info\": {", "\"params\": {\"Route\": [",
        "\"key\": \"default.audio.sink\", \"value\": {\"name\": \"x\"}", "true", "null", "-1e999",
        "4294967295", "99999999999999999999", "n/a", "é", "ß", "日本", "\u{1B}[31m", "\u{1B}]0;title\u{07}", "\u{0}",
        "\u{85}", "\u{9B}", "\u{FEFF}", "\u{202E}", "a", "b", "0", "1",
    ]

    /// A dump made of 0 to 80 pieces.
    static let assembled = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...80)
        .map { indices in indices.map { pieces[$0] }.joined() }

    /// Up to 300 random characters, control characters among them.
    static let noise = Gen.ascii.string(of: 0...300)

    /// The corpus's dumps, to cut and splice.
    static let corpus: [String] = Corpus.names().compactMap {
        try? String(contentsOf: Corpus.directory.appendingPathComponent($0), encoding: .utf8)
    }

    /// A corpus dump cut at a random place, with pieces spliced in at another.
    static let mutatedCorpus = zip(Gen.int(in: 0...max(0, corpus.count - 1)), Gen.int(in: 0...100_000),
                                   Gen.int(in: 0...100_000), Gen.int(in: 0...(pieces.count - 1)).array(of: 0...8))
        .map { file, cut, splice, inserted -> String in
            guard !corpus.isEmpty else { return "" }
            let bytes = Array(corpus[file].utf8)
            let end = bytes.isEmpty ? 0 : cut % (bytes.count + 1)
            var kept = Array(bytes[..<end])
            let at = kept.isEmpty ? 0 : splice % (kept.count + 1)
            kept.insert(contentsOf: inserted.flatMap { Array(pieces[$0].utf8) }, at: at)
            return String(decoding: kept, as: UTF8.self)
        }

    /// Any of the above.
    static let any = Gen.oneOf(assembled, noise, mutatedCorpus)

    /// How many inputs a run checks: `DUMP_FUZZ_COUNT` from the environment (100 000 for
    /// the recorded run), else a number small enough for every test run.
    static var count: Int {
        ProcessInfo.processInfo.environment["DUMP_FUZZ_COUNT"].flatMap { Int($0) } ?? 1_000
    }
}
