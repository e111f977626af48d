import Foundation
import SoundServerSandbox
import TestSupport
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
            // The server and the version it reports of itself, whichever release is installed.
            let version = try await server.serverVersion()
            #expect(text.standardOutput.contains(kind == .pipewire ? "PipeWire \(version) (pipewire-pulse)" : "PulseAudio \(version)"))
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

    @Test("list shows devices as a person thinks of them, as a table and as JSON", arguments: SoundServerKind.allCases)
    func list(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await sandboxWithDevices(kind) { server in
            let table = try await routectl.run(["list"], environment: ["PULSE_SERVER": server.serverAddress])
            #expect(table.status == 0, "\(table.standardError)")
            let lines = table.standardOutput.split(separator: "\n")
            let headsetLine = try #require(lines.first { $0.contains("BT Headset") })
            #expect(headsetLine.hasPrefix("*"), "the active device is marked")
            #expect(headsetLine.contains("bluetooth"))
            let speakerLine = try #require(lines.first { $0.contains("Speaker") })
            #expect(speakerLine.contains("speakerphone"))
            #expect(!table.standardOutput.contains(".monitor"), "monitors are not devices")

            let json = try await routectl.run(["list", "--json", "--server", server.serverAddress])
            #expect(json.status == 0, "\(json.standardError)")
            let devices = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            #expect(devices.count == 2)
            let headset = try #require(devices.first { $0["id"] as? String == "bt_headset" })
            #expect(headset["kind"] as? String == "bluetooth")
            #expect(headset["description"] as? String == "BT Headset")
            #expect(headset["availability"] as? String == "available")
            #expect(headset["active"] as? Bool == true)
            #expect(headset["card"] is NSNull)
            #expect((headset["output"] as? [String: Any])?["sink"] as? String == "bt_headset")
            #expect(headset["input"] is NSNull)
            let speaker = try #require(devices.first { $0["id"] as? String == "speaker" })
            #expect(speaker["kind"] as? String == "speakerphone")
            #expect(speaker["active"] as? Bool == false)
        }
    }

    @Test("list --raw shows the server's sinks and sources", arguments: SoundServerKind.allCases)
    func listRaw(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await sandboxWithDevices(kind) { server in
            let table = try await routectl.run(["list", "--raw"], environment: ["PULSE_SERVER": server.serverAddress])
            #expect(table.status == 0, "\(table.standardError)")
            let headsetLine = try #require(table.standardOutput.split(separator: "\n").first { $0.contains(" bt_headset ") })
            #expect(headsetLine.hasPrefix("*"), "the default sink is marked")
            #expect(table.standardOutput.contains("speaker.monitor"))

            let json = try await routectl.run(["list", "--raw", "--json", "--server", server.serverAddress])
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

    @Test("list --from-dump shows a machine from a bug report")
    func fromDump() async throws {
        let routectl = try Executable.built("routectl")
        let file = Corpus.path(of: "07_bt-earbuds-jabra-elite-75t-a2dp-and-hfp-card_pa.txt")
        let result = try await routectl.run(["list", "--from-dump", file, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let earbuds = try #require(devices.first { $0["kind"] as? String == "bluetooth" })
        #expect((earbuds["card"] as? String)?.hasPrefix("bluez_card.70_BF_92_C9_F5_D0") == true)
        #expect((earbuds["output"] as? [String: Any])?["port"] as? String == "headset-output")
        #expect((earbuds["input"] as? [String: Any])?["port"] as? String == "headset-input")

        let table = try await routectl.run(["list", "--from-dump", file])
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("bluetooth"))
    }

    @Test("list --from-dump shows each device once when the paste holds the machine twice (pactl, then pacmd)")
    func fromDumpPastedTwice() async throws {
        let routectl = try Executable.built("routectl")
        let file = Corpus.path(of: "59_desktop-alc887-lineout-front-headphones-french-pactl-and-pacmd_pa-11.txt")
        let result = try await routectl.run(["list", "--from-dump", file, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let ids = devices.compactMap { $0["id"] as? String }
        #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
    }

    @Test("a malformed dump is refused with the line; a missing file, a FIFO or /dev/zero with exit 66")
    func badDumps() async throws {
        let routectl = try Executable.built("routectl")
        try await withTemporaryDirectory("routectl-dump") { directory in
            let malformed = directory.appendingPathComponent("malformed.txt")
            try Data("Sink #0\n\tState: RUNNING\n\tDescription: no name here\n".utf8).write(to: malformed)
            let result = try await routectl.run(["list", "--from-dump", malformed.path])
            #expect(result.status == 65)
            #expect(result.standardError.hasPrefix("routectl: \(malformed.path):"))
            let notADump = directory.appendingPathComponent("prose.txt")
            try Data("hello\nthis is not a dump\n".utf8).write(to: notADump)
            let prose = try await routectl.run(["list", "--from-dump", notADump.path])
            #expect(prose.status == 65)
            #expect(prose.standardError.contains("\(notADump.path):1:"))

            let missing = try await routectl.run(["list", "--from-dump", directory.appendingPathComponent("nope.txt").path])
            #expect(missing.status == 66)
            #expect(missing.standardError.contains("cannot read"))

            let zero = try await routectl.run(["list", "--from-dump", "/dev/zero"])
            #expect(zero.status == 66)
            #expect(zero.standardError == "routectl: /dev/zero is a character device, not a dump file\n")
            let fifo = directory.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let fromFIFO = try await routectl.run(["list", "--from-dump", fifo])
            #expect(fromFIFO.status == 66)
            #expect(fromFIFO.standardError.contains("is a FIFO"))
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
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let kinds = Dictionary(uniqueKeysWithValues: devices.compactMap { device in
            (device["id"] as? String).map { ($0, device["kind"] as? String ?? "") }
        })
        #expect(kinds == ["builtin_speaker": "speakerphone", "usb_headset": "wiredHeadset", "bt_headset": "bluetooth"])

        let failing = try await sandbox.run(["--", "sh", "-c", "exit 7"])
        #expect(failing.status == 7)
    }
}
