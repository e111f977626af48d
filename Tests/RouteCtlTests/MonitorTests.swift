import Foundation
import Glibc
import PulseAudio
import SoundServerSandbox
import Testing

/// `routectl monitor` through the built binary: JSON lines for scripts as devices come and go,
/// one line per event when piped; read-only, so the server is as it was after it stops.
@Suite("routectl monitor")
struct MonitorTests {
    /// The JSON object of a line.
    static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Whether `line` is the event `name`, and `matches` holds for it.
    static func event(_ name: String, _ line: String, _ matches: ([String: Any]) -> Bool = { _ in true }) -> Bool {
        guard let object = object(line), object["event"] as? String == name else { return false }
        return matches(object)
    }

    static func ids(_ value: Any?) -> [String] {
        (value as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("--json prints one object per line per event as devices are plugged and audio moves",
          arguments: SoundServerKind.allCases)
    func jsonLines(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            // The default is set by a client connected before the monitor: a `pactl` connecting
            // to set it can make pipewire-pulse drop the change for every connection already
            // there, the monitor's too (Docs/Reliability.md, "The PipeWire default that never
            // reaches long-lived connections"), which is not what this test is about.
            let setter = PulseClient(configuration: .init(server: session.server.socketPath, applicationName: "monitor-tests-setter",
                                                          reconnectPolicy: .never))
            defer { setter.shutdown() }
            try await setter.connect()
            let monitor = try await session.start(["monitor", "--json"])
            let lines = monitor.standardOutput
            let state = try await lines.next("the state") { Self.event("state", $0) }
            let first = try #require(Self.object(state))
            #expect(Set(Self.ids(first["devices"])) == ["speaker", "usb_headset", "bt_headset"], "\(state)")
            #expect((first["route"] as? [String: Any])?["id"] as? String == "bt_headset")
            #expect(first["connected"] as? Bool == true)
            #expect(first["connection"] as? String == "ready")
            #expect(first["time"] is String)

            let plugged = try await session.server.loadNullSink(name: "bt_other", properties: [
                "device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Other"])
            _ = try await lines.next("the devices with the new headset") { line in
                Self.event("devicesChanged", line) { Self.ids($0["devices"]).contains("bt_other") }
            }

            try await setter.setDefaultSink("bt_other")
            let moved = try await lines.next("the route on the new headset") { line in
                Self.event("routeChanged", line) { ($0["to"] as? [String: Any])?["id"] as? String == "bt_other" }
            }
            #expect((Self.object(moved)?["from"] as? [String: Any])?["id"] as? String == "bt_headset", "\(moved)")
            #expect(Self.object(moved)?["reason"] as? String == "changedElsewhere")

            try await session.server.unloadModule(plugged)
            _ = try await lines.next("the devices without it") { line in
                Self.event("devicesChanged", line) { !Self.ids($0["devices"]).contains("bt_other") }
            }
            monitor.send(SIGTERM)
            #expect(try await monitor.exitStatus() == 0, "\(monitor.standardError.lines)")
            #expect(lines.lines.allSatisfy { Self.object($0) != nil }, "every line is JSON: \(lines.lines)")
            #expect(!lines.lines.contains { Self.event("yielded", $0) })
        }
    }

    @Test("--json tells the server's death and return: connection reconnecting with each attempt, then ready",
          arguments: SoundServerKind.allCases)
    func jsonConnection(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let monitor = try await session.start(["monitor", "--json"])
            let lines = monitor.standardOutput
            _ = try await lines.next("the state") { Self.event("state", $0) }

            try await session.server.crash()
            for attempt in 1...2 {
                let line = try await lines.next("reconnecting, attempt \(attempt)") { line in
                    Self.event("connectionChanged", line) { $0["attempt"] as? Int == attempt }
                }
                let object = try #require(Self.object(line))
                #expect(object["connection"] as? String == "reconnecting", "\(line)")
                #expect(object["connected"] as? Bool == false, "\(line)")
                #expect((object["error"] as? String).map { !$0.isEmpty } == true, "why the last attempt failed: \(line)")
            }
            try await session.server.restart()
            let ready = try await lines.next("ready again") { line in
                Self.event("connectionChanged", line) { $0["connection"] as? String == "ready" }
            }
            #expect(Self.object(ready)?["connected"] as? Bool == true, "\(ready)")
            #expect(Self.object(ready)?["attempt"] == nil, "\(ready)")
            monitor.send(SIGTERM)
            #expect(try await monitor.exitStatus() == 0, "\(monitor.standardError.lines)")
            // Every connection line names its state with one of the stable names (the monitor's own
            // stop may come out as `shutdown` before it exits, or not, as SIGTERM finds it).
            let names = lines.lines.compactMap { line in Self.object(line).flatMap { $0["event"] as? String == "connectionChanged" ? $0 : nil } }
                .compactMap { $0["connection"] as? String }
            #expect(Set(names).isSubset(of: ["reconnecting", "ready", "shutdown"]), "\(names)")
            #expect(names.filter { $0 != "shutdown" }.last == "ready", "\(names)")
        }
    }

    @Test("on a terminal it redraws the table in place, in colour unless NO_COLOR is set", arguments: [false, true])
    func terminal(noColour: Bool) async throws {
        try await RouteCtlSession.with(.pulseaudio) { session in
            // script(1) gives the monitor a terminal, and hands what it draws on to a pipe.
            var environment = session.environment
            environment["TERM"] = "xterm"
            environment["NO_COLOR"] = noColour ? "1" : nil
            let command = "\(session.routectl.url.path) monitor --server \(session.server.socketPath)"
            let terminal = try await RunningProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command, "/dev/null"],
                                              environment: environment)
            let screen = terminal.standardOutput
            let route = try await screen.next("the table with the route marked") { $0.contains("*  bluetooth") }
            #expect(route.contains("\u{1B}[32;1m") != noColour, "\(route.debugDescription)")
            #expect(route.hasSuffix("\u{1B}[K\r"), "each line is cleared to its end: \(route.debugDescription)")
            _ = try await session.server.loadNullSink(name: "hdmi_out", properties: ["device.description": "HDMI"])
            let redrawn = try await screen.next("the table redrawn with the new device") { $0.contains("hdmi_out") }
            #expect(!redrawn.contains("\u{1B}[3") || !noColour)
            #expect(screen.lines.contains { $0.hasPrefix("\u{1B}[H") }, "each frame starts at the top left")
            terminal.send(SIGTERM)
            _ = try await terminal.exitStatus()
        }
    }

    @Test("piped, it writes one line per event, without escapes, and changes nothing")
    func lines() async throws {
        try await RouteCtlSession.with(.pulseaudio) { session in
            let monitor = try await session.start(["monitor"])
            let lines = monitor.standardOutput
            let state = try await lines.next("the state") { $0.hasPrefix("state: ") }
            #expect(state == "state: route bt_headset (BT Headset), 3 devices, call audio off, connected")
            _ = try await session.server.pactl("set-default-sink", "speaker")
            _ = try await lines.next("the route line") { $0 == "route: speaker (Speaker) <- bt_headset (changedElsewhere)" }
            monitor.send(SIGINT)
            #expect(try await monitor.exitStatus() == 0)
            #expect(!lines.lines.joined().contains("\u{1B}"), "no terminal escapes in a pipe")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "speaker", "read-only: nothing put back")
        }
    }
}
