@testable import PulseAudio
import TestSupport
import SoundServerSandbox
import Testing

/// The connection survives a server that dies again and again: while the client is away,
/// while it is connecting again, and right after it has connected again.
@Suite("Reconnection on real servers")
struct ReconnectionTests {
    /// Quick attempts, so that twenty restarts take seconds, not minutes.
    private static let quickRetries = ReconnectPolicy(initialDelay: .milliseconds(5), maximumDelay: .milliseconds(40))

    /// How many times each test kills the server.
    private static let rounds = 20

    @Test("killed and restarted repeatedly, also right after reconnecting: ends ready, answering, with events",
          arguments: SoundServerKind.allCases)
    func repeatedKills(kind: SoundServerKind) async throws {
        try await withSandbox(kind, reconnect: Self.quickRetries) { server, client, _ in
            let events = client.events()
            for round in 1...Self.rounds {
                try await server.crash()
                try await awaitState("reconnecting after kill \(round)", in: events, \.isReconnecting)
                try await server.restart()
                try await awaitState("ready after restart \(round)", in: events, \.isReady)
                guard round.isMultiple(of: 2) else { continue }
                // Kill again the moment the client says it is back: the loss lands while the
                // reconnection that just succeeded is still winding up.
                try await server.crash()
                try await awaitState("reconnecting after the kill right after ready (\(round))", in: events,
                                     \.isReconnecting)
                try await server.restart()
                try await awaitState("ready again (\(round))", in: events, \.isReady)
            }
            try await expectServing(server, client, events, sinkName: "after_kills")
        }
    }

    @Test("killed while the client is connecting again: it tries again until the server stays",
          arguments: SoundServerKind.allCases)
    func killsWhileReconnecting(kind: SoundServerKind) async throws {
        try await withSandbox(kind, reconnect: Self.quickRetries) { server, client, _ in
            let events = client.events()
            for round in 1...Self.rounds / 2 {
                try await server.crash()
                try await awaitState("reconnecting after kill \(round)", in: events, \.isReconnecting)
                // Up and down again at once: the client's attempt meets a server that dies
                // before, during or right after its handshake.
                try await server.restart()
                try await server.crash()
                #expect(!client.core.isReadyWithoutContext)
                try await server.restart()
                try await waitUntilReady(client, "ready after restart \(round)")
            }
            try await expectServing(server, client, events, sinkName: "after_flapping")
        }
    }

    @Test("connect() while reconnecting waits until the server is back", arguments: SoundServerKind.allCases)
    func connectWhileReconnecting(kind: SoundServerKind) async throws {
        try await withSandbox(kind, reconnect: Self.quickRetries) { server, client, _ in
            let events = client.events()
            try await server.crash()
            try await awaitState("reconnecting", in: events, \.isReconnecting)
            let connecting = Task { try await client.connect() }
            // Attempts fail while the server is away (every 5 to 40 ms); the call waits through them.
            try await awaitState("a failed attempt", in: events) {
                if case .reconnecting(let attempt, _) = $0 { attempt >= 3 } else { false }
            }
            try await server.restart()
            try await withTimeout("connect() to return") { try await connecting.value }
            #expect(client.state == .ready)
        }
    }

    /// Waits for the next connection state of `events` that `matches`.
    private func awaitState(
        _ what: String, in events: AsyncStream<PulseEvent>, _ matches: @escaping @Sendable (ConnectionState) -> Bool
    ) async throws {
        _ = try await firstEvent(what, in: events, timeout: .seconds(5)) { event in
            guard case .connectionStateChanged(let state) = event else { return false }
            return matches(state)
        }
    }

    /// Waits until the client is ready, whatever it went through since the last look.
    private func waitUntilReady(_ client: PulseClient, _ what: String) async throws {
        try await withTimeout(what, .seconds(5)) {
            let events = client.events()
            if client.state.isReady { return }
            for await event in events {
                if case .connectionStateChanged(.ready) = event { return }
            }
        }
    }

    /// The client is ready with a live context: it answers requests, and a new sink's event reaches it.
    private func expectServing(
        _ server: SandboxServer, _ client: PulseClient, _ events: AsyncStream<PulseEvent>, sinkName: String
    ) async throws {
        #expect(client.state == .ready)
        #expect(!client.core.isReadyWithoutContext)
        #expect(try await client.serverInfo().serverName.isEmpty == false)
        _ = try await server.loadNullSink(name: sinkName, properties: internalSpeaker)
        // pipewire-pulse answers the load before its node is listed: waited for, event by event.
        try await waitUntil("\(sinkName) listed", observer: client) { try await client.sink(named: sinkName) != nil }
        let sink = try #require(try await client.sink(named: sinkName))
        _ = try await firstEvent("the new sink's event", in: events, timeout: .seconds(5)) {
            $0 == .subscription(SubscriptionEvent(facility: .sink, kind: .new, index: sink.index))
        }
    }
}

extension ConnectionState {
    fileprivate var isReconnecting: Bool {
        if case .reconnecting = self { true } else { false }
    }
}
