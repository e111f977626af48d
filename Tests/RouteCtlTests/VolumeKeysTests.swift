import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl volume-keys`, run as a user runs it: presses made with pactl, as a desktop's
/// volume keys make them, printed one per line, and the volume as it was after Ctrl-C.
@Suite("routectl volume-keys")
struct VolumeKeysTests {
    static func volume(on server: SandboxServer) async throws -> String {
        try await server.pactl("get-sink-volume", "bt_headset").split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test("without the daemon: each step is printed and undone; Ctrl-C puts the volume back", arguments: SoundServerKind.allCases)
    func direct(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "60%")
            let before = try await Self.volume(on: session.server)
            let keys = try await session.start(["volume-keys"])
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: capturing bt_headset (Ctrl-C to stop)" }
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await keys.standardOutput.next("the up press") { !$0.isEmpty } == "up")
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "-5%")
            #expect(try await keys.standardOutput.next("the down press") { !$0.isEmpty } == "down")
            _ = try await session.server.pactl("set-sink-mute", "bt_headset", "toggle")
            #expect(try await keys.standardOutput.next("the mute press") { !$0.isEmpty } == "mute")
            keys.send(SIGINT)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            #expect(keys.standardError.lines.contains("volume-keys: released bt_headset, its volume as it was"))
            try await ServerObservation.waitUntil("the volume as it was", on: session.server) { _ in
                try await Self.volume(on: session.server) == before
            }
            #expect(try await session.server.pactl("get-sink-mute", "bt_headset").contains("no"))
        }
    }

    @Test("without the daemon, on PipeWire: a client that comes and goes is followed by one reading of the default on a new connection, which finds nothing missed; on PulseAudio, none",
          arguments: SoundServerKind.allCases)
    func defaultReadAfterClients(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let keys = try await session.start(["volume-keys", "--log-level", "debug"])
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: capturing bt_headset (Ctrl-C to stop)" }
            let reading = "read the defaults on a new connection"
            _ = try await session.server.pactl("info")
            if kind == .pipewire {
                // The healer reads once clients have been quiet for 300 ms.
                let line = try await keys.standardError.next("the reading after pactl left", timeout: .seconds(10)) {
                    $0.contains(reading)
                }
                #expect(line.contains("missed=false") && line.contains("sink=bt_headset"), "\(line)")
            } else {
                // PulseAudio keeps every connection's default: nothing to heal, nothing read.
                try await Task.sleep(for: .milliseconds(1500))
                #expect(!keys.standardError.lines.contains { $0.contains(reading) }, "\(keys.standardError.lines)")
            }
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await keys.standardOutput.next("the up press") { !$0.isEmpty } == "up", "capture goes on beside it")
            keys.send(SIGINT)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            #expect(keys.standardError.lines.contains("volume-keys: released bt_headset, its volume as it was"))
        }
    }

    @Test("with the daemon: the daemon captures, --json prints each press, and SIGTERM releases the keys")
    func throughTheDaemon() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio) { server, clients, _ in
            let routectl = try Executable.built("routectl").url.path
            let keys = try await RunningProcess(URL(fileURLWithPath: routectl), ["volume-keys", "--json", "--server", server.socketPath],
                                                environment: clients.environment)
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: the daemon captures (Ctrl-C to stop)" }
            #expect(try await clients.property("VolumeCapture") == "b true")
            _ = try await server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await keys.standardOutput.next("the up press") { !$0.isEmpty } == #"{"button":"up"}"#)
            keys.send(SIGTERM)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            #expect(try await clients.property("VolumeCapture") == "b false")
        }
    }
}
