import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// The daemon pausing and resuming a real player: mpv with mpv-mpris playing a tone on a
/// Bluetooth headset, checked with playerctl, pactl and the daemon's D-Bus signals.
@Suite("routectl daemon pauses and resumes mpv")
struct DaemonMediaTests {
    static let mediaSignals = "type='signal',interface='io.github.routekit.RouteKit1'"

    @Test("the headset goes: mpv is paused and its stream muted until it corks; the headset back: mpv plays again",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func pauseAndResume(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DBusAPITests.speaker)
            var headset = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let daemon = try await clients.daemon(["--prefer", "bluetooth", "--prefer", "speakerphone"], on: server)
                let log = daemon.standardError
                _ = try await log.next("the route on the headset") { $0.hasPrefix("route: bt_headset ") }
                let observer = try await clients.observer()
                let signals = try await observer.signals(matching: Self.mediaSignals)

                let mpv = try await Mpv.start(on: bus, server: server)
                let pid = String(mpv.processID)
                try await mpv.failingIfItEnds {
                    _ = try await log.next("mpv seen playing") {
                        $0.hasPrefix("media: player org.mpris.MediaPlayer2.mpv") && $0.contains("pid \(pid)") && $0.hasSuffix("playing")
                    }
                    try await Self.waitForStream(pid, on: server) { $0.contains("Corked: no") && $0.contains("Sink: ") }
                }

                try await server.unloadModule(headset)
                let held = try await log.next("mpv paused") { $0.hasPrefix("media: bt_headset went away") }
                #expect(held.contains("paused org.mpris.MediaPlayer2.mpv; muted streams"), "\(held)")
                let paused = try await signals.next("MediaPaused") { $0.member == "MediaPaused" }
                #expect(paused.arguments == [.strings(["org.mpris.MediaPlayer2.mpv"]), .string("bt_headset went away")])
                // mpv pauses (its stream corks) and RouteKit then lets go of the mute.
                try await Self.waitForStream(pid, on: server) { $0.contains("Corked: yes") && $0.contains("Mute: no") }
                #expect(try await playerctl(["--player=mpv", "status"], bus: bus) == "Paused")
                #expect(try await clients.property("PausedPlayers") == "as 1 \"org.mpris.MediaPlayer2.mpv\"")

                headset = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
                // Two tasks of the daemon write these: either may come first.
                _ = try await log.nextInAnyOrder("the route back on the headset, and mpv resumed", [
                    { $0.hasPrefix("route: bt_headset ") },
                    { $0.hasPrefix("media: resumed org.mpris.MediaPlayer2.mpv") },
                ])
                let resumed = try await signals.next("MediaResumed") { $0.member == "MediaResumed" }
                #expect(resumed.arguments == [.strings(["org.mpris.MediaPlayer2.mpv"]), .string("bt_headset went away")])
                try await Self.waitForStream(pid, on: server) { $0.contains("Corked: no") && $0.contains("Mute: no") }
                #expect(try await playerctl(["--player=mpv", "status"], bus: bus) == "Playing")

                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
            }
        }
    }

    /// Waits, event by event, until the sink input of process `pid`, as `pactl list sink-inputs`
    /// prints it, satisfies `condition`.
    static func waitForStream(_ pid: String, on server: SandboxServer, _ condition: @escaping @Sendable (String) -> Bool) async throws {
        try await ServerObservation.waitUntil("mpv's stream", on: server) { _ in
            let blocks = try await server.pactl("list", "sink-inputs").components(separatedBy: "Sink Input #")
            guard let block = blocks.first(where: { $0.contains("application.process.id = \"\(pid)\"") }) else { return false }
            return condition(block)
        }
    }
}
