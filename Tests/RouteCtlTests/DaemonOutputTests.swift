import Glibc
import PulseAudio
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import Testing
import TextSupport

/// `routectl daemon`'s output never waits: lines nobody can take are dropped and counted, and
/// the count is written where they went missing; the server's loss and return are said once.
@Suite("routectl daemon's output")
struct DaemonOutputTests {
    @Test("a full backlog drops lines and counts them; the count comes where they went missing")
    func backlogDropsAndCounts() {
        var backlog = OutputBacklog(capacity: 12)
        let offered = ["aaaaa", "bbbbb", "c", "d"].map { backlog.offer($0) }
        #expect(offered == [true, true, false, false], "12 bytes hold two lines of 6")
        let first = backlog.take()
        let kept = backlog.offer("e")
        let rest = [backlog.take(), backlog.take(), backlog.take(), backlog.take()]
        #expect(first == .line("aaaaa"))
        #expect(kept)
        #expect(rest == [.line("bbbbb"), .dropped(2), .line("e"), nil])
        #expect(backlog.droppedTotal == 2)
        #expect(OutputBacklog.Entry.dropped(2).text == "output: 2 lines dropped\n")
    }

    @Test("lines that cannot be written are counted, and the count waits for a write that works")
    func failedWritesAreCounted() {
        var backlog = OutputBacklog(capacity: 100)
        _ = backlog.offer("lost")
        let entry = backlog.take()
        backlog.wrote(.line("lost"), successfully: false)
        let whileFailing = backlog.take()
        let emptyWhileFailing = backlog.isEmpty
        _ = backlog.offer("next")
        let count = backlog.take()
        backlog.wrote(.dropped(1), successfully: false)
        let line = backlog.take()
        backlog.wrote(.line("next"), successfully: true)
        let both = backlog.take()
        #expect(entry == .line("lost"))
        #expect(whileFailing == nil, "no count is written while writing fails")
        #expect(emptyWhileFailing)
        #expect(count == .dropped(1))
        #expect(line == .line("next"))
        #expect(both == .dropped(1), "the count it could not write comes again once a write works")
    }

    @Test("writing to a pipe nobody reads never waits; once read, every line before the drops comes, then the count")
    func pipeNobodyReads() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = LineWriter(descriptor: ends[1], capacity: 64 * 1024)
        let line = String(repeating: "x", count: 100)
        let clock = ContinuousClock()
        let took = clock.measure {
            for index in 0..<20_000 { writer.write("\(index) \(line)") }
        }
        // 2 MB of lines: a pipe holds 64 KiB, the backlog 64 KiB more.
        #expect(took < .seconds(2), "writing waited: \(took)")
        #expect(writer.droppedCount > 15_000)

        // The reader comes: what was kept is written, then the count, then what comes next.
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        func drain() {
            while true {
                let count = read(ends[0], &buffer, buffer.count)
                if count <= 0 { break }
                text += String(decoding: buffer.prefix(count), as: UTF8.self)
            }
        }
        var waited = 0
        while !writer.flush(timeout: .milliseconds(10)) && waited < 1000 {
            drain()
            waited += 1
        }
        drain()
        writer.write("after")
        #expect(writer.flush(timeout: .seconds(5)))
        drain()
        close(ends[1])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("0 ") == true)
        // Where lines went missing, a count; the counts add up to every line dropped.
        let counts = lines.filter { $0.hasPrefix("output: ") }
            .compactMap { Int($0.split(separator: " ")[1]) }
        #expect(!counts.isEmpty)
        #expect(counts.reduce(0, +) == writer.droppedCount, "\(lines.filter { $0.hasPrefix("output: ") })")
        #expect(lines.count - counts.count - 1 + writer.droppedCount == 20_000, "every line written or counted")
        #expect(lines.last == "after")
    }

    @Test("the server's loss is said once, not at each attempt, and its return once, with the attempts")
    func outageSaidOnce() {
        let refused = PulseError(.connectionRefused, operation: "connect", reason: "Connection refused")
        var outage = ServerOutageLines()
        let states: [ConnectionState] = [.ready, .reconnecting(attempt: 1, lastError: refused), .reconnecting(attempt: 2, lastError: refused),
                                         .reconnecting(attempt: 40, lastError: refused), .ready, .reconnecting(attempt: 1, lastError: refused)]
        let sentences = states.map { outage.sentence(for: $0) }
        #expect(sentences == [
            "connected",
            "connection lost; reconnecting (attempt 1, after: Connection refused); said again when it is back",
            nil, nil,
            "connected again after 40 attempts",
            "connection lost; reconnecting (attempt 1, after: Connection refused); said again when it is back",
        ])
    }

    @Test("no daemon line carries a control character: a net that leaves escapes already made as they are")
    func controlsEscaped() {
        #expect(TerminalText.controlsEscaped("dbus: taken by evil\u{1B}[2J (pid 7)") == "dbus: taken by evil\\x1b[2J (pid 7)")
        #expect(TerminalText.controlsEscaped("media: player x (Fake\nroute: forged)") == "media: player x (Fake\\nroute: forged)")
        let escaped = TerminalText.escaped("a\nb\\c")
        #expect(TerminalText.controlsEscaped(escaped) == escaped, "a second pass changes nothing")
        #expect(TerminalText.controlsEscaped("plain") == "plain")
    }
}
