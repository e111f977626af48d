import DBus
import Foundation
import Glibc
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon` while a softphone's call rings over D-Bus (`OpenCall("…", "ringing")`)
/// and a ringtone (`media.role=event`) plays on the Bluetooth headset in use.
@Suite("routectl daemon: ringing")
struct DaemonRingingTests {
    static func call(_ member: String, _ arguments: [String]) -> BusCall {
        ClientOwnedRequestTests.call(member, arguments.map { .string($0) })
    }

    /// The ringtone, playing on the headset as the server shows it.
    static func ringtone(on server: SandboxServer) async throws -> StreamProcess {
        let ringtone = try await StreamProcess(on: server, .playback, device: "bt_headset", properties: ["media.role": "event"])
        try await ServerObservation.waitUntil("the ringtone on the headset", on: server) { client in
            try await ApplicationScopeTests.sink(of: ringtone, client) == "bt_headset"
        }
        return ringtone
    }

    @Test("by default the ringtone plays on the speaker and the headset while the call rings, and is back on the headset once answered",
          arguments: SoundServerKind.allCases)
    func ringsOnBothByDefault(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let ringtone = try await Self.ringtone(on: server)
            defer { ringtone.stop() }
            let softphone = try await clients.observer()
            _ = try await softphone.call(Self.call("OpenCall", ["incoming", "ringing"]))
            let line = try await daemon.standardError.next("the ring line") { $0.hasPrefix("ring: ") }
            #expect(line.hasSuffix("on the speaker and the headset while ringing"), "\(line)")
            try await ServerObservation.waitUntil("the ringtone on the combined sink", on: server) { client in
                try await ApplicationScopeTests.sink(of: ringtone, client) == "routekit_ringing"
            }
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset", "the route stays on the headset")

            _ = try await softphone.call(Self.call("SetCallState", ["incoming", "active"]))
            _ = try await daemon.standardError.next("the ringtone put back") { $0.hasPrefix("ring: ") && $0.hasSuffix("back on bt_headset") }
            try await ServerObservation.waitUntil("the ringtone on the headset, the combined sink gone", on: server) { client in
                let back = try await ApplicationScopeTests.sink(of: ringtone, client) == "bt_headset"
                let gone = try await client.sink(named: "routekit_ringing") == nil
                return back && gone
            }
            await softphone.close()
        }
    }

    @Test("ringing = \"speaker\" moves the ringtone to the speaker; a reload to \"headset\" mid-ringing puts it back at once",
          arguments: SoundServerKind.allCases)
    func speakerThenReload(kind: SoundServerKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ringing-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "[calls]\nringing = \"speaker\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        try await DBusAPITests.withDaemon(kind, ["--config", file]) { server, clients, daemon in
            let ringtone = try await Self.ringtone(on: server)
            defer { ringtone.stop() }
            let softphone = try await clients.observer()
            _ = try await softphone.call(Self.call("OpenCall", ["incoming", "ringing"]))
            let line = try await daemon.standardError.next("the ring line") { $0.hasPrefix("ring: ") }
            #expect(line.hasSuffix("on the speaker while ringing"), "\(line)")
            try await ServerObservation.waitUntil("the ringtone on the speaker", on: server) { client in
                try await ApplicationScopeTests.sink(of: ringtone, client) == "speaker"
            }

            try "[calls]\nringing = \"headset\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            daemon.send(SIGHUP)
            _ = try await daemon.standardError.nextInAnyOrder("the reload and the ringtone put back", [
                { $0.hasPrefix("config: reloaded") && $0.hasSuffix("ringing on the headset") },
                { $0.hasPrefix("ring: ") && $0.hasSuffix("back on bt_headset") },
            ])
            try await ServerObservation.waitUntil("the ringtone back on the headset", on: server) { client in
                try await ApplicationScopeTests.sink(of: ringtone, client) == "bt_headset"
            }
            await softphone.close()
        }
    }

    @Test("silent mode (the headset in use muted): the ringtone stays on the headset while the call rings, and the daemon says why",
          arguments: SoundServerKind.allCases)
    func silentModeKeepsItOffTheSpeaker(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let observer = try await clients.observer()
            let changes = try await observer.signals(matching: DaemonContextTests.propertiesChanged)
            _ = try await server.pactl("set-sink-mute", "bt_headset", "1")
            // The daemon tells ringing before it publishes the property.
            try await DaemonContextTests.waitForProperty("SilentMode", "s \"silent\"", clients: clients, changes: changes)
            let ringtone = try await Self.ringtone(on: server)
            defer { ringtone.stop() }
            let softphone = try await clients.observer()
            _ = try await softphone.call(Self.call("OpenCall", ["incoming", "ringing"]))
            let line = try await daemon.standardError.next("the ring line") { $0.hasPrefix("ring: ") }
            #expect(line.hasSuffix("stays on the headset: silent mode is on"), "\(line)")
            _ = observer
            try await ServerObservation.waitUntil("the ringtone read on the headset", on: server) { client in
                try await ApplicationScopeTests.sink(of: ringtone, client) == "bt_headset"
            }
            await softphone.close()
        }
    }
}
