import DumpReader
import PulseAudio
import RouteKit
import Testing

@Suite("Dump: errors name the line")
struct DumpErrorTests {
    private func error(parsing text: String) -> DumpParseError? {
        do {
            _ = try ServerDump.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("a sink block without a name")
    func sinkWithoutName() {
        let text = """
            Sink #0
            \tState: IDLE
            \tName: fine

            Sink #3
            \tState: RUNNING
            \tDriver: module-null-sink.c

            Source #4
            \tName: fine.monitor
            """
        #expect(error(parsing: text) == DumpParseError(line: 5, message: "Sink #3 has no name"))
        #expect(error(parsing: text)?.description == "line 5: Sink #3 has no name")
    }

    @Test("an excerpt cut inside its last block keeps the blocks before it")
    func cutLastBlock() throws {
        let text = """
            Sink #0
            \tName: fine
            Sink #1
            \tState: RUNNING
            """
        #expect(try ServerDump.parse(text).sinks.map(\.name) == ["fine"])
        #expect(error(parsing: "Sink #1\n\tState: RUNNING\n")?.message == "no cards, sinks, sources or nodes found")
    }

    @Test("a card block without a name, in pacmd")
    func pacmdCardWithoutName() {
        let text = "1 card(s) available.\n    index: 4\n\tdriver: <module-alsa-card.c>\n    index: 5\n\tname: <b>\n"
        #expect(error(parsing: text) == DumpParseError(line: 2, message: "card index 4 has no name"))
    }

    @Test("a property whose quote never closes")
    func unterminatedQuote() {
        let text = """
            Sink #0
            \tName: a
            \tProperties:
            \t\tdevice.description = "Built-in Audio
            \tPorts:
            \t\tanalog-output: Analog Output (priority: 9900)
            """
        #expect(error(parsing: text) == DumpParseError(
            line: 4, message: "the value of property 'device.description' has no closing quote"))
    }

    @Test("nothing recognisable at all")
    func nothing() {
        let expected = DumpParseError(line: 1, message: "no cards, sinks, sources or nodes found")
        #expect(error(parsing: "") == expected)
        #expect(error(parsing: "Hello,\nmy sound does not work. Any idea?\n") == expected)
        #expect(error(parsing: "Server Name: pulseaudio\nDefault Sink: foo\n") == expected)
        #expect(error(parsing: "[\n  { \"id\": 1, \"type\": \"PipeWire:Interface:Core\" }\n]") == expected)
    }

    @Test("an index that does not fit")
    func indexOutOfRange() {
        #expect(error(parsing: "Sink #1\n\tName: a\nSink #99999999999\n\tName: b\n")
            == DumpParseError(line: 3, message: "index 99999999999 is out of range"))
    }

    @Test("what real pastes lack is not an error")
    func tolerated() throws {
        // A heading cut off at the end of an excerpt, a card without heading nor name,
        // properties replaced by "...", a port line without attributes.
        let text = """
            Profiles:
            \tHiFi: Play HiFi quality Music (sinks: 1, sources: 1, available: yes)
            Ports:
            \t[Out] Earpiece (type: Earpiece) — Part of profile: HiFi

            Sink #1
            \tName: a
            \tProperties:
            \t\t...
            \tPorts:
            \t\tanalog-output: Analog Output
            Sink #2
            """
        let dump = try ServerDump.parse(text)
        #expect(dump.cards.first?.name == "")
        #expect(dump.cards.first?.ports.first?.name == "[Out] Earpiece")
        #expect(dump.cards.first?.ports.first?.type == .earpiece)
        #expect(dump.cards.first?.ports.first?.profileNames == ["HiFi"])
        #expect(dump.sinks.map(\.name) == ["a"])
        #expect(dump.sinks.first?.ports.first?.name == "analog-output")
    }
}
