import Foundation
import SoundServerSandbox
import Testing

/// `routectl use`, `call`, `speaker`, `mic` and `status` with no daemon running, through the
/// built binary, against real sandboxed servers: each is one run of the engine.
@Suite("routectl commands without the daemon")
struct DirectCommandTests {
    func object(_ output: Executable.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    @Test("use switches to a kind or a device now, and status --json shows it with why", arguments: SoundServerKind.allCases)
    func use(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let byKind = try await session.run(["use", "speakerphone"])
            #expect(byKind.status == 0, "\(byKind.standardError)")
            #expect(byKind.standardOutput.hasPrefix("use: audio goes to speaker (Speaker)"), "\(byKind.standardOutput)")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "speaker")

            let byID = try await session.run(["use", "usb_headset"])
            #expect(byID.status == 0, "\(byID.standardError)")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "usb_headset")

            let status = try object(try await session.run(["status", "--json"]))
            #expect((status["output"] as? [String: Any])?["id"] as? String == "usb_headset")
            #expect(status["daemon"] as? Bool == false)
            #expect(status["why"] as? String == "the server's own default (no RouteKit daemon is running)")
            #expect(status["callAudio"] as? Bool == false)
            #expect(status["defaultSink"] as? String == "usb_headset", "the keys status had before stay")
            #expect(status["selection"] is NSNull)
        }
    }

    @Test("an unknown device exits 67 and a misspelled kind 64, each listing the kinds and the devices there are",
          arguments: SoundServerKind.allCases)
    func unknown(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let device = try await session.run(["use", "bt_headst"])
            #expect(device.status == 67)
            #expect(device.standardError.hasPrefix("routectl: no device \"bt_headst\" is present."), "\(device.standardError)")
            for id in ["speaker", "usb_headset", "bt_headset"] { #expect(device.standardError.contains("  \(id) ")) }
            #expect(device.standardError.contains("Kinds: bluetooth, wiredHeadset, speakerphone, earpiece"))

            let misspelled = try await session.run(["use", "blutooth"])
            #expect(misspelled.status == 64)
            #expect(misspelled.standardError.contains("did you mean bluetooth?"), "\(misspelled.standardError)")
            #expect(misspelled.standardError.contains("  bt_headset "))

            let absentKind = try await session.run(["use", "earpiece"])
            #expect(absentKind.status == 67)
            #expect(absentKind.standardError.contains("no earpiece device is present and usable."))
            #expect(try await ServerObservation.defaultSink(on: session.server) == "bt_headset", "nothing changed")
        }
    }

    @Test("call start and end turn call audio on and off, and say so when it already is", arguments: SoundServerKind.allCases)
    func callAudio(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            try await session.addMicrophone()
            let start = try await session.run(["call", "start"])
            #expect(start.status == 0, "\(start.standardError)")
            #expect(start.standardOutput == "call audio: on\n")
            #expect(try object(try await session.run(["status", "--json"]))["callAudio"] as? Bool == true)
            #expect(try await session.run(["call", "start"]).standardOutput == "call audio: on (it was already)\n")

            let end = try await session.run(["call", "end"])
            #expect(end.status == 0, "\(end.standardError)")
            #expect(end.standardOutput == "call audio: off\n")
            let after = try object(try await session.run(["status", "--json"]))
            #expect(after["callAudio"] as? Bool == false)
            #expect((after["input"] as? [String: Any])?["source"] as? String == "builtin_mic", "the microphone stays the input")
            #expect(try await session.run(["call", "end"]).standardOutput == "call audio: off (it was already)\n")
        }
    }

    @Test("speaker on puts audio on the speaker; off moves it to the best device of the call list, the Bluetooth headset",
          arguments: SoundServerKind.allCases)
    func speaker(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let on = try await session.run(["speaker", "on"])
            #expect(on.status == 0, "\(on.standardError)")
            #expect(on.standardOutput == "speaker: on; audio goes to speaker (Speaker)\n")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "speaker")

            let off = try await session.run(["speaker", "off"])
            #expect(off.status == 0, "\(off.standardError)")
            #expect(off.standardOutput == "speaker: off; audio goes to bt_headset (BT Headset)\n")
            #expect(try await ServerObservation.defaultSink(on: session.server) == "bt_headset")
        }
    }

    @Test("mic mute and unmute (in another process) the microphone recorded from; without one it exits 67",
          arguments: SoundServerKind.allCases)
    func microphone(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let none = try await session.run(["mic", "mute"])
            #expect(none.status == 67)
            #expect(none.standardError.hasPrefix("routectl: no microphone is in use: the route has no input"), "\(none.standardError)")

            try await session.addMicrophone()
            let mute = try await session.run(["mic", "mute"])
            #expect(mute.status == 0, "\(mute.standardError)")
            #expect(mute.standardOutput == "mic: builtin_mic muted\n")
            #expect(try await session.server.pactl("get-source-mute", "builtin_mic").contains("yes"))
            #expect(try object(try await session.run(["status", "--json"]))["microphoneMuted"] as? Bool == true)

            let unmute = try await session.run(["mic", "unmute"])
            #expect(unmute.status == 0, "\(unmute.standardError)")
            #expect(unmute.standardOutput == "mic: builtin_mic unmuted\n")
            #expect(try await session.server.pactl("get-source-mute", "builtin_mic").contains("no"))
        }
    }

    @Test("status says where audio goes and why, as text")
    func statusText() async throws {
        try await RouteCtlSession.with(.pulseaudio) { session in
            let text = try await session.run(["status"])
            #expect(text.status == 0, "\(text.standardError)")
            for line in ["Output:          bt_headset (BT Headset), bluetooth",
                         "Why:             the server's own default (no RouteKit daemon is running)",
                         "Call audio:      off", "Daemon:          not running"] {
                #expect(text.standardOutput.contains(line), "\(text.standardOutput)")
            }
        }
    }

    @Test("no sound server exits 69 and says so")
    func noServer() async throws {
        try await withTemporaryFolder { folder in
            let routectl = try Executable.built("routectl")
            let result = try await routectl.run(["use", "speakerphone", "--server", folder + "/no-such-socket"],
                                                environment: ["XDG_RUNTIME_DIR": folder, "DBUS_SESSION_BUS_ADDRESS": nil])
            #expect(result.status == 69)
            #expect(result.standardError.contains("cannot reach a sound server"), "\(result.standardError)")
        }
    }
}

/// A folder of the test's own, removed after.
func withTemporaryFolder(_ body: (String) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routectl-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try await body(folder)
}
