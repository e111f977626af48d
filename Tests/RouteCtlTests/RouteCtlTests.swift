import Foundation
import SoundServerSandbox
import Testing

/// `routectl` run as a user runs it, against sandboxed servers.
@Suite("routectl")
struct RouteCtlTests {
    private func sandboxWithDevices(_ kind: SoundServerKind, _ body: (SandboxServer) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: ["device.form_factor": "internal",
                                                                            "device.description": "Speaker"])
            _ = try await server.loadNullSink(name: "bt_headset", properties: ["device.bus": "bluetooth",
                                                                               "device.form_factor": "headset",
                                                                               "device.description": "BT Headset"])
            _ = try await server.pactl("set-default-sink", "bt_headset")
            try await body(server)
        }
    }

    @Test("status names the server and its defaults", arguments: SoundServerKind.allCases)
    func status(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await sandboxWithDevices(kind) { server in
            let text = try await routectl.run(["status", "--server", server.socketPath])
            #expect(text.status == 0, "\(text.standardError)")
            #expect(text.standardOutput.contains(kind == .pipewire ? "PipeWire 0.3" : "PulseAudio 16"))
            #expect(text.standardOutput.contains("Default sink:    bt_headset (BT Headset)"))

            let json = try await routectl.run(["status", "--json"], environment: ["PULSE_SERVER": server.serverAddress])
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(object["implementation"] as? String == kind.rawValue)
            #expect(object["defaultSink"] as? String == "bt_headset")
            #expect(object["sinks"] as? Int == 2)
            #expect(object["server"] as? String == server.serverAddress)
        }
    }

    @Test("list shows sinks and sources, as a table and as JSON", arguments: SoundServerKind.allCases)
    func list(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await sandboxWithDevices(kind) { server in
            let table = try await routectl.run(["list"], environment: ["PULSE_SERVER": server.serverAddress])
            #expect(table.status == 0, "\(table.standardError)")
            let headsetLine = try #require(table.standardOutput.split(separator: "\n").first { $0.contains(" bt_headset ") })
            #expect(headsetLine.hasPrefix("*"), "the default sink is marked")
            #expect(headsetLine.contains("BT Headset"))
            #expect(table.standardOutput.contains("speaker.monitor"))

            let json = try await routectl.run(["list", "--json", "--server", server.serverAddress])
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let sinks = try #require(object["sinks"] as? [[String: Any]])
            let headset = try #require(sinks.first { $0["name"] as? String == "bt_headset" })
            #expect(headset["isDefault"] as? Bool == true)
            #expect((headset["properties"] as? [String: String])?["device.bus"] == "bluetooth")
            let sources = try #require(object["sources"] as? [[String: Any]])
            let monitor = try #require(sources.first { $0["name"] as? String == "bt_headset.monitor" })
            #expect(monitor["monitorOf"] as? String == "bt_headset" || kind == .pipewire)
        }
    }

    @Test("no server: a clear message on stderr and exit status 69")
    func unreachable() async throws {
        let routectl = try Executable.built("routectl")
        for arguments in [["status"], ["list", "--json"]] {
            let result = try await routectl.run(arguments, environment: ["PULSE_SERVER": "unix:/nonexistent/routekit/native"])
            #expect(result.status == 69)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.hasPrefix(
                "routectl: cannot reach a sound server at unix:/nonexistent/routekit/native (from PULSE_SERVER): Connection refused."))
        }
        let explicit = try await routectl.run(["status", "--server", "/nonexistent/native"])
        #expect(explicit.status == 69)
        #expect(explicit.standardError.contains("at /nonexistent/native"))
    }

    @Test("usage errors exit 64, and --help teaches the exit statuses")
    func usage() async throws {
        let routectl = try Executable.built("routectl")
        let bad = try await routectl.run(["list", "--no-such-flag"])
        #expect(bad.status == 64)
        let help = try await routectl.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("69 when no sound server"))
        #expect(help.standardOutput.contains("list"))
        #expect(help.standardOutput.contains("status"))
    }

    @Test("routekit-sandbox runs a command against a sandboxed server with the demo devices",
          arguments: SoundServerKind.allCases)
    func sandboxCommand(kind: SoundServerKind) async throws {
        let sandbox = try Executable.built("routekit-sandbox")
        let routectl = try Executable.built("routectl")
        let result = try await sandbox.run(["--server", kind.rawValue, "--", routectl.url.path, "list", "--json"],
                                           environment: ["PULSE_SERVER": nil])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let names = try #require(object["sinks"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(Set(names) == ["builtin_speaker", "usb_headset", "bt_headset"])

        let failing = try await sandbox.run(["--", "sh", "-c", "exit 7"])
        #expect(failing.status == 7)
    }
}
