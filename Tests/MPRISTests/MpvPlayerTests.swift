import ConcurrencySupport
import DBus
import Foundation
import Glibc
import MediaControl
import MPRIS
import ProcessRunner
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// MPRISPlayers with the real player and client users have: mpv with mpv-mpris, playing a tone
/// through a sandboxed PulseAudio, and playerctl, on a private bus.
@Suite("MPRIS players, with mpv and playerctl")
struct MpvPlayerTests {
    @Test("mpv is seen playing with its stream's pid; pause corks it, playerctl agrees and is heard; quitting vanishes")
    func mpv() async throws {
        try await SandboxServer.withServer(.pulseaudio) { server in
            _ = try await server.loadNullSink(name: "speaker")
            let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-mpris-observer"))
            defer { observer.shutdown() }
            try await observer.connect()
            try await PrivateSessionBus.withBus { bus in
                try await withPlayers(on: bus) { players, client, _ in
                    let events = players.events()
                    let mpv = try await Mpv.start(on: bus, server: server)
                    let playing = try await mpv.failingIfItEnds {
                        try await firstEvent("mpv to play", in: events, timeout: .seconds(30)) {
                            $0.player?.processID == mpv.processID && $0.player?.status == .playing
                        }
                    }
                    let name = try #require(playing.player?.name)
                    #expect(name == "org.mpris.MediaPlayer2.mpv")
                    #expect(playing.player?.identity == "mpv")
                    // The pid is what matches a player to its stream.
                    let stream = try await mpv.failingIfItEnds {
                        try await waitForStream(of: mpv, observer: observer) { !$0.isCorked }
                    }
                    #expect(stream.properties["application.process.id"] == String(mpv.processID))

                    try await players.pause(name)
                    _ = try await firstEvent("mpv paused", in: events) { $0.name == name && $0.player?.status == .paused }
                    #expect(players.players().map(\.status) == [.paused])
                    #expect(try await playerctl(["--player=mpv", "status"], bus: bus) == "Paused")
                    _ = try await waitForStream(of: mpv, observer: observer) { $0.isCorked }

                    // From outside: playerctl toggles it back, and the change is an event.
                    _ = try await playerctl(["--player=mpv", "play-pause"], bus: bus)
                    _ = try await firstEvent("mpv playing again", in: events) { $0.name == name && $0.player?.status == .playing }
                    _ = try await waitForStream(of: mpv, observer: observer) { !$0.isCorked }

                    // mpv quits (MPRIS Quit, as a desktop's media controls ask it): it vanishes.
                    _ = try await client.call(BusCall(destination: name, path: "/org/mpris/MediaPlayer2",
                                                      interface: "org.mpris.MediaPlayer2", member: "Quit"))
                    // (It says Stopped on its way out.)
                    let leaving = try await collectEvents("mpv to vanish", from: events) { $0 == .vanished(name: name) }
                    #expect(leaving.allSatisfy { $0.name == name && $0.player?.status != .playing })
                    #expect(players.players().isEmpty)
                    #expect(await mpv.completion() == .exited(0))
                }
            }
        }
    }
}

/// mpv's sink input, once it satisfies `condition`, as the observer sees it.
private func waitForStream(of mpv: Mpv, observer: PulseClient,
                           _ condition: @escaping @Sendable (SinkInputInfo) -> Bool) async throws -> SinkInputInfo {
    let pid = String(mpv.processID)
    let found = FoundStream()
    try await waitUntil("mpv's stream", observer: observer) {
        let stream = try await observer.sinkInputs().first { $0.properties["application.process.id"] == pid }
        guard let stream, condition(stream) else { return false }
        found.set(stream)
        return true
    }
    return try #require(found.value)
}

/// The stream a wait found.
private final class FoundStream: Sendable {
    private let stream = LockedValue<SinkInputInfo?>(nil)
    func set(_ value: SinkInputInfo) { stream.withLock { $0 = value } }
    var value: SinkInputInfo? { stream.withLock { $0 } }
}
