import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// The manager's connection, as a subscriber and the state tell it, on both real servers: the
/// server SIGKILLed and brought back, a client that does not reconnect, the manager's own
/// start and stop. The words are `PulseClient`'s own (`ConnectionState`).
@Suite("AudioDeviceManager on real servers: the connection's states")
struct ManagerConnectionTests {
    static let speaker = ConventionDevice.speakerphone()
    static let headset = ConventionDevice.bluetoothHeadset("bt_headset")

    /// The connection changes among `events`, in order.
    static func connectionChanges(_ events: [AudioRouteEvent]) -> [ConnectionState] {
        events.compactMap { event in
            guard case .connectionChanged(let state) = event else { return nil }
            return state
        }
    }

    @Test("the server SIGKILLed: a subscriber hears reconnecting, attempt after attempt, then ready, and the route is re-applied",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func serverKilled(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            #expect(Self.connectionChanges(await rig.recorder.events) == [.connecting, .ready], "the start, told")
            #expect(rig.manager.state.connection == .ready)

            let mark = await rig.recorder.count
            try await rig.server.crash()
            try await rig.recorder.waitForEvent("reconnecting, attempt 1", after: mark) {
                if case .connectionChanged(.reconnecting(attempt: 1, _)) = $0 { true } else { false }
            }
            // No server to find: the first attempt fails, and the second is told too.
            try await rig.recorder.waitForEvent("reconnecting, attempt 2", after: mark) {
                if case .connectionChanged(.reconnecting(attempt: 2, _)) = $0 { true } else { false }
            }
            let whileGone = rig.manager.state
            #expect(whileGone.connection.reconnectAttempt.map { $0 >= 2 } == true, "\(whileGone.connection)")
            #expect(!whileGone.isConnected)
            #expect(whileGone.route == nil, "no route is named while the server is gone")
            #expect(rig.manager.selectedAudioDevice == nil)

            try await rig.server.restart()
            try await rig.observer.connect()
            try await rig.recorder.waitForEvent("ready again", after: mark) { $0 == .connectionChanged(.ready) }
            rig.forgetModules()
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark)
            try await rig.expectRoute(on: Self.headset, "after the server came back")
            #expect(rig.manager.state.connection == .ready)

            // In order: the loss first (and the route told gone with it), each attempt counted
            // from 1 with why the last one failed, then ready once.
            let events = Array(await rig.recorder.events.dropFirst(mark))
            let changes = Self.connectionChanges(events)
            #expect(changes.last == .ready, "\(changes)")
            #expect(changes.filter { $0 == .ready }.count == 1, "\(changes)")
            let attempts = changes.compactMap(\.reconnectAttempt)
            #expect(attempts == Array(1...max(attempts.count, 1)), "attempts counted one by one: \(changes)")
            #expect(changes.dropLast().allSatisfy { $0.name == "reconnecting" && $0.error != nil }, "\(changes)")
            let lost = events.firstIndex { if case .connectionChanged(.reconnecting) = $0 { true } else { false } }
            let disconnected = events.firstIndex { if case .routeChanged(_, nil, .disconnected) = $0 { true } else { false } }
            let ready = events.firstIndex(of: .connectionChanged(.ready))
            let order = [lost, disconnected, ready].compactMap { $0 }
            let transcript = await rig.recorder.transcript(after: mark)
            #expect(order.count == 3 && order == order.sorted(), "\(transcript)")
        }
    }

    @Test("a client that does not reconnect: the manager says failed, with the client's reason, and routes nothing",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func clientGivesUp(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-never",
                                                          reconnectPolicy: .never))
            defer { client.shutdown() }
            try await client.connect()
            let manager = AudioDeviceManager(server: client, preferences: [.kind(.speakerphone)], logger: LiveManagerRig.quietLogger)
            let recorder = await RouteEventRecorder.recording(manager)
            #expect(manager.state.connection == .idle, "before the first start")
            try await withTimeout("manager start") { try await manager.start() }
            #expect(manager.state.connection == .ready)

            try await server.crash()
            try await recorder.waitForEvent("failed", after: 0) {
                if case .connectionChanged(.failed) = $0 { true } else { false }
            }
            let state = manager.state
            #expect(state.connection.name == "failed")
            #expect(state.connection.error != nil)
            #expect(!state.isConnected)
            #expect(state.route == nil)
            let changes = Self.connectionChanges(await recorder.events)
            #expect(changes.count == 3 && changes.prefix(2) == [.connecting, .ready], "\(changes)")
            #expect(!changes.contains { $0.name == "reconnecting" }, "it never tried again: \(changes)")

            await manager.stop()
            #expect(manager.state.connection == .shutDown)
            try await recorder.waitForEvent("shut down", after: 0) { $0 == .connectionChanged(.shutDown) }
        }
    }

    @Test("a start that cannot read the server: failed, with the error start() threw", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func startFails(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-late"))
            defer { client.shutdown() }
            try await client.connect()
            let manager = AudioDeviceManager(server: client, preferences: [.kind(.speakerphone)], logger: LiveManagerRig.quietLogger)
            let recorder = await RouteEventRecorder.recording(manager)
            try await server.crash()
            // The client reconnects meanwhile: the start's reads throw at once.
            let thrown = await #expect(throws: PulseError.self) { try await manager.start() }
            #expect(!manager.isRunning)
            #expect(manager.state.connection == thrown.map(ConnectionState.failed), "\(manager.state.connection)")
            try await recorder.waitForEvent("failed", after: 0) {
                if case .connectionChanged(.failed) = $0 { true } else { false }
            }
            #expect(Self.connectionChanges(await recorder.events).map(\.name) == ["connecting", "failed"])
        }
    }

    @Test("stop() says shutDown, and a start after it says connecting then ready", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func stopAndStartAgain(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.start(expecting: Self.speaker)
            await rig.manager.stop()
            #expect(rig.manager.state.connection == .shutDown)
            #expect(rig.manager.state.route == nil)
            try await rig.recorder.waitForEvent("shut down", after: 0) { $0 == .connectionChanged(.shutDown) }
            #expect(Self.connectionChanges(await rig.recorder.events) == [.connecting, .ready, .shutDown])

            // The recorder's stream ended with the run; a new subscriber sees the next one.
            let next = await RouteEventRecorder.recording(rig.manager)
            try await withTimeout("manager start again") { try await rig.manager.start() }
            try await next.waitForEvent("ready", after: 0) { $0 == .connectionChanged(.ready) }
            guard case .state(let first)? = await next.events.first else {
                Issue.record("the first event is not the state")
                return
            }
            #expect(first.connection == .shutDown, "a subscriber between two runs starts from the last one's end")
            #expect(Self.connectionChanges(await next.events) == [.connecting, .ready])
        }
    }
}
