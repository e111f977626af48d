import Foundation
import PulseAudio
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import RouteKit
import Testing
import TextSupport
import TestSupport

/// What servers and dumps say reaches the terminal escaped: no raw ESC, no line break that
/// forges a line; JSON keeps the strings as they are.
@Suite("Escaped output")
struct EscapedOutputTests {
    /// A description holding a colour sequence and a line that looks like the daemon's.
    static let hostileDescription = "Speaker\u{1B}[31m\nroute: forged (deviceAppeared)\u{9B}2J"

    @Test("control characters, C1 controls and backslashes are escaped; the rest is left alone")
    func terminalText() {
        #expect(TerminalText.escaped("Haut-parleurs intégrés") == "Haut-parleurs intégrés")
        #expect(TerminalText.escaped("a\u{1B}[31mb") == "a\\x1b[31mb")
        #expect(TerminalText.escaped("one\ntwo\r\tthree") == "one\\ntwo\\r\\tthree")
        #expect(TerminalText.escaped("\u{0}\u{7F}\u{85}\u{9B}") == "\\x00\\x7f\\u{0085}\\u{009b}")
        #expect(TerminalText.escaped("C:\\x1b") == "C:\\\\x1b")
    }

    @Test("a daemon event line names a hostile device on one line, escaped")
    func eventLine() {
        let device = AudioDevice(id: "evil\nroute: x", kind: .speakerphone, description: Self.hostileDescription,
                                 bus: nil, formFactor: nil, availability: .available, isActive: true, card: nil,
                                 output: nil, input: nil, requiredProfile: nil)
        let line = RouteEventLine.text(.routeChanged(from: nil, to: device, reason: .deviceAppeared))
        #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("\u{9B}"))
        #expect(line == "route: evil\\nroute: x (Speaker\\x1b[31m\\nroute: forged (deviceAppeared)\\u{009b}2J) <- none (deviceAppeared)")
        let devices = RouteEventLine.text(.devicesChanged([device]))
        #expect(devices == "devices: 1 (evil\\nroute: x)")
    }

    @Test("routectl list --from-dump prints a hostile description escaped, and --json as it is")
    func listFromDump() async throws {
        let routectl = try Executable.built("routectl")
        try await withTemporaryDirectory("routectl-escape") { directory in
            let file = directory.appendingPathComponent("hostile.json")
            let node: [String: Any] = ["media.class": "Audio/Sink", "node.name": "evil", "device.bus": "pci",
                                       "node.description": Self.hostileDescription]
            try JSONSerialization.data(withJSONObject: node).write(to: file)
            try await expectEscaped(routectl: routectl, file: file)
        }
    }

    /// The table escapes the dump's description; the JSON keeps it.
    private func expectEscaped(routectl: Executable, file: URL) async throws {
        let table = try await routectl.run(["list", "--from-dump", file.path])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(!table.standardOutput.contains("\u{1B}") && !table.standardOutput.contains("\u{9B}"))
        #expect(table.standardOutput.contains("Speaker\\x1b[31m\\nroute: forged (deviceAppeared)\\u{009b}2J"))
        #expect(!table.standardOutput.split(separator: "\n").contains { $0.hasPrefix("route:") })

        let json = try await routectl.run(["list", "--from-dump", file.path, "--json"])
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(devices.first?["description"] as? String == Self.hostileDescription)
    }
}
