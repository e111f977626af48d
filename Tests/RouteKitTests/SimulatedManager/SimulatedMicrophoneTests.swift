import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// The call's microphone when the server refuses its mute, on the simulated server: what a
/// real server cannot be made to do on cue.
@Suite("AudioDeviceManager on the simulated server: a refused microphone mute")
struct SimulatedMicrophoneTests {
    static let laptopSource = SimulatedCallAudioTests.laptopSource

    /// The engine performs what each answer of the machine asks before it reads the server's
    /// events. A mute asked again as soon as it was refused was refused again at once, without
    /// end, when its source had gone and the removal was still on its way: on PipeWire 1.4 the
    /// switch to the built-in microphone never came.
    @Test("a refused mute is asked once, not again and again; it is tried again a second later and takes")
    func refusedMuteIsNotRepeated() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.speakerphone)], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: SimulatedCallAudioTests.speaker)
        let call = try await manager.startCall()
        let events = server.events()

        server.failNextCommand(.setSourceMute, with: .noSuchEntity)
        let outcome = try await manager.setMicrophoneMuted(true)
        #expect(outcome.failures.map(\.code) == [.noSuchEntity], "the refusal is told to the caller")
        // The command is answered once the loop has performed all it asked for.
        #expect(mutes(server) == 1, "asked once: \(server.receivedCommands)")
        #expect(try await server.source(named: Self.laptopSource)?.isMuted == false)
        #expect(manager.isMicrophoneMuted, "the call's mute stands")

        // Nothing changes on the server: the mute is tried again after a second, and takes.
        try await withTimeout("the microphone muted on the retry", .seconds(5)) {
            if try await server.source(named: Self.laptopSource)?.isMuted == true { return }
            for await _ in events where try await server.source(named: Self.laptopSource)?.isMuted == true { return }
        }
        #expect(mutes(server) == 2)
        await call.end()
        await manager.stop()
    }

    /// The mute requests the server received so far.
    private func mutes(_ server: SimulatedServer) -> Int {
        server.receivedCommands.filter { if case .setSourceMute(_, muted: true) = $0 { true } else { false } }.count
    }
}
