import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// The sound server frozen (SIGSTOP: its socket open, nothing answered) while the daemon holds
/// the most: volume capture on, media held for a call, the call active. Its requests have time
/// limits and its services stop together, so a SIGTERM ends it within its stop bound, and a
/// server that thaws finds it working.
@Suite("routectl daemon with a frozen server")
struct DaemonFrozenServerTests {
    /// SIGTERM to exit with the server frozen: the route's restore gives up after 4 s, the
    /// context's (unmute, volume) after 2 s at the same time; a second and a half for the rest.
    static let stopBound = Duration.milliseconds(5_500)

    /// Capture on (held by `observer`'s connection), music playing on the headset, and a call
    /// started, which holds the music: returns the music.
    static func holdEverything(_ server: SandboxServer, _ clients: SessionBusClients, _ daemon: RunningProcess,
                               observer: BusConnection) async throws -> StreamProcess {
        let music = try await StreamProcess(on: server, .playback, device: "bt_headset", properties: ["media.role": "music"])
        let pid = String(music.processID)
        try await ServerObservation.waitUntilPlaying(pid, on: "bt_headset", server: server)
        _ = try await observer.call(ClientOwnedRequestTests.call("StartVolumeCapture"))
        _ = try await daemon.standardError.next("capture on") { $0 == "volume: capture on" }
        #expect(try await clients.call("StartCall").status == 0)
        let held = try await daemon.standardError.next("the music held") { $0.hasPrefix("media: call audio: ") }
        #expect(held.contains("muted streams"), "\(held)")
        return music
    }

    @Test("SIGTERM while the server is frozen, with capture, held media and a call: the daemon exits 0 within its stop bound",
          .timeLimit(.minutes(2)), arguments: SoundServerKind.allCases)
    func stopWhileFrozen(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let observer = try await clients.observer()
            let music = try await Self.holdEverything(server, clients, daemon, observer: observer)
            defer { music.stop() }

            try server.freeze()
            defer { try? server.thaw() }
            let clock = ContinuousClock()
            let sent = clock.now
            daemon.send(SIGTERM)
            let status = try await daemon.exitStatus(timeout: .seconds(30))
            let stopped = sent.duration(to: clock.now)
            #expect(status == 0, "\(daemon.standardError.lines)")
            #expect(stopped < Self.stopBound, "stopping took \(stopped): \(daemon.standardError.lines.suffix(8))")
            FaultDrill.figure("server-freeze \(kind) SIGTERM to exit", "\(stopped)")
            try server.thaw()
            await observer.close()
        }
    }

    @Test("frozen for 3 s with capture, held media and a call: Status answers meanwhile; thawed, the call ends, media and volume come back",
          .timeLimit(.minutes(2)), arguments: SoundServerKind.allCases)
    func frozenThenThawed(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let before = try await DaemonContextTests.volume(of: "bt_headset", on: server)
            let observer = try await clients.observer()
            let music = try await Self.holdEverything(server, clients, daemon, observer: observer)
            defer { music.stop() }

            try server.freeze()
            let clock = ContinuousClock()
            let frozenAt = clock.now
            var status: SessionBusClients.Output?
            let answered = try await clock.measure { status = try await clients.call("Status") }
            #expect(status?.status == 0, "\(String(describing: status))")
            #expect(answered < .seconds(2), "Status took \(answered) with the server frozen")
            // Three seconds frozen in all, counted from the freeze (not a wait for an event:
            // the fault itself lasts that long).
            try await Task.sleep(until: frozenAt + .seconds(3), clock: .continuous)
            try server.thaw()

            let ended = try await withTimeout("EndCall after the thaw", .seconds(10)) { try await clients.call("EndCall") }
            #expect(ended.status == 0, "\(ended)")
            _ = try await daemon.standardError.next("the music given back") { $0.hasPrefix("media: ") && $0.contains("resumed")
                || $0.hasPrefix("call audio: off") }
            let pid = String(music.processID)
            try await ServerObservation.waitUntil("the music unmuted", on: server) { _ in
                let blocks = try await server.pactl("list", "sink-inputs").components(separatedBy: "Sink Input #")
                return blocks.first { $0.contains("application.process.id = \"\(pid)\"") }?.contains("Mute: no") == true
            }
            _ = try await observer.call(ClientOwnedRequestTests.call("StopVolumeCapture"))
            try await ServerObservation.waitUntil("the volume back as it was", on: server) { _ in
                try await DaemonContextTests.volume(of: "bt_headset", on: server) == before
            }
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
            #expect(try await clients.property("Route") == "s \"bt_headset\"")
            await observer.close()
        }
    }
}
