import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// The session bus restarted under `routectl daemon --callaudio`: after each restart both its
/// names are served again and its MPRIS follower follows the new bus's players.
@Suite("routectl daemon across session bus restarts")
struct DaemonBusRestartTests {
    @Test("the session bus restarted again and again: RouteKit1 and CallAudio served again, and a new player followed each time",
          .timeLimit(.minutes(10)))
    func busRestarts() async throws {
        let drill = FaultDrill.fromEnvironment(defaultRepeats: 3)
        try await DBusAPITests.withDaemon(.pulseaudio, ["--callaudio"]) { server, clients, daemon in
            let log = daemon.standardError
            let clock = ContinuousClock()
            var longest = Duration.zero
            for restart in 1...drill.repeats {
                let restarted = clock.now
                try await clients.bus.restart()
                // The API and MPRIS have connections of their own: their lines come in either order.
                let lost = try await log.nextInAnyOrder("the loss of the bus, restart \(restart)", [
                    { $0.hasPrefix("dbus: lost the session bus") }, { $0.hasPrefix("mpris: lost the session bus") },
                ])
                #expect(lost.count == 2)
                let back = try await log.nextInAnyOrder("the names and MPRIS back, restart \(restart)", [
                    { $0.hasPrefix("dbus: serving") }, { $0.hasPrefix("mpris: following ") && $0.hasSuffix(" again") },
                ])
                #expect(back.first == "dbus: serving io.github.routekit.RouteKit1 and org.mobian_project.CallAudio "
                        + "on the session bus (\(clients.bus.address)) again")
                #expect(try await clients.property("Route") == "s \"bt_headset\"")
                #expect(try await clients.callAudioProperty("AudioMode") == "u 0")
                longest = max(longest, restarted.duration(to: clock.now))
                #expect(try await clients.property("Route") == "s \"bt_headset\"")
                #expect(try await clients.callAudioProperty("AudioMode") == "u 0")

                let mpv = try await Mpv.start(on: clients.bus, server: server)
                let pid = String(mpv.processID)
                try await mpv.failingIfItEnds {
                    _ = try await log.next("mpv followed on the new bus, restart \(restart)") {
                        $0.hasPrefix("media: player org.mpris.MediaPlayer2.mpv") && $0.contains("pid \(pid)") && $0.hasSuffix("playing")
                    }
                }
            }
            FaultDrill.figure("bus-restart restarts", "\(drill.repeats)")
            FaultDrill.figure("bus-restart longest restart to both names and MPRIS back", "\(longest)")
        }
    }
}
