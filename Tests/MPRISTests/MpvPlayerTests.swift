import DBus
import Foundation
import Glibc
import MediaControl
import MPRIS
import ProcessRunner
import PulseAudio
import SoundServerSandbox
import Synchronization
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

/// mpv playing a 440 Hz tone to the sandbox's server, with the system's mpv-mpris script,
/// on the private bus; its messages (warnings and errors) kept for a failure's message.
final class Mpv: Sendable {
    let processID: UInt32
    private let process: ChildProcess
    private let output: OutputLines
    /// Ends when mpv's output does, that is when mpv has ended; awaiting it can be cancelled.
    private let ended: AsyncStream<Never>

    private init(process: ChildProcess, output: OutputLines, ended: AsyncStream<Never>) {
        self.processID = UInt32(process.pid)
        self.process = process
        self.output = output
        self.ended = ended
    }

    static func start(on bus: PrivateSessionBus, server: SandboxServer) async throws -> Mpv {
        let command = ["/usr/bin/mpv", "--no-video", "--no-input-terminal", "--msg-level=all=warn", "--ao=pulse",
                       "av://lavfi:sine=frequency=440"]
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let output = OutputLines()
        let (ended, end) = AsyncStream.makeStream(of: Never.self)
        let process = try await ChildProcess.launch(
            setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + command } ?? command,
            environment: bus.environment.merging(server.environment) { $1 },
            output: .lines(onLine: { _, line in output.append(line) }, onEnd: { end.finish() }))
        return Mpv(process: process, output: output, ended: ended)
    }

    /// Runs `body`, failing with mpv's messages if mpv ends first.
    func failingIfItEnds<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await body() }
            group.addTask {
                for await _ in self.ended {}
                try Task.checkCancellation()
                let ending = await self.process.completion(within: .seconds(5))
                throw MpvEnded(message: "mpv ended (\(String(describing: ending))): \(self.output.text)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// How it ended, once it has (within 15 seconds).
    func completion() async -> Termination? {
        await process.completion(within: .seconds(15))
    }

    deinit { process.signal(SIGKILL) }
}

struct MpvEnded: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
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

/// playerctl's output, trimmed, run against the private bus.
private func playerctl(_ arguments: [String], bus: PrivateSessionBus) async throws -> String {
    let completion = try await ChildProcess.run(["/usr/bin/playerctl"] + arguments, environment: bus.environment,
                                                timeLimit: .seconds(15))
    guard completion.termination == .exited(0) else {
        throw MpvEnded(message: "playerctl \(arguments) failed (\(completion.termination)): \(completion.standardError)")
    }
    return completion.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The stream a wait found.
private final class FoundStream: Sendable {
    private let stream = Mutex<SinkInputInfo?>(nil)
    func set(_ value: SinkInputInfo) { stream.withLock { $0 = value } }
    var value: SinkInputInfo? { stream.withLock { $0 } }
}
