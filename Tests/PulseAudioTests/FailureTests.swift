@testable import PulseAudio
import TestSupport
import SoundServerSandbox
import Testing

/// Nothing hangs: a dead server, a cancelled task and a shutdown each end every call.
@Suite("Failures on real servers")
struct FailureTests {
    /// Waits until `count` requests of `client` are waiting for the server.
    private func waitForPendingRequests(_ client: PulseClient, count: Int = 1) async throws {
        try await withTimeout("\(count) request(s) in flight") {
            while client.core.pendingRequestCount < count { await Task.yield() }
        }
    }

    @Test("the server dying mid-request fails the request, and the client reconnects when it returns",
          arguments: SoundServerKind.allCases)
    func serverDiesAndReturns(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            let events = client.events()
            try server.freeze()
            let request = Task { try await client.sinks() }
            try await waitForPendingRequests(client)
            try await server.crash()

            let error = try await withTimeout("the pending request to fail") {
                await #expect(throws: PulseError.self) { try await request.value }
            }
            #expect(error?.code == .connectionTerminated || error?.code == .connectionRefused)
            #expect(error?.operation == "list sinks")
            #expect(client.core.pendingRequestCount == 0)

            _ = try await firstEvent("reconnecting", in: events) {
                if case .connectionStateChanged(.reconnecting) = $0 { true } else { false }
            }
            // Calls made while the server is away throw at once.
            let meanwhile = await #expect(throws: PulseError.self) { try await client.serverInfo() }
            #expect(meanwhile?.code == .badState)

            try await server.restart()
            _ = try await firstEvent("ready again", in: events) { $0 == .connectionStateChanged(.ready) }
            #expect(client.state == .ready)
            _ = try await server.loadNullSink(name: "after_restart", properties: internalSpeaker)
            // pipewire-pulse answers the load before its node is listed: waited for, event by event.
            try await waitUntil("after_restart listed on the new connection", observer: client) {
                try await client.sink(named: "after_restart") != nil
            }
            // Events flow on the new connection.
            let index = try #require(try await client.sink(named: "after_restart")?.index)
            _ = try await firstEvent("an event after reconnecting", in: events) {
                $0 == .subscription(SubscriptionEvent(facility: .sink, kind: .new, index: index))
            }
        }
    }

    @Test("with reconnection off, a lost server is final", arguments: SoundServerKind.allCases)
    func noReconnect(kind: SoundServerKind) async throws {
        try await withSandbox(kind, reconnect: .never) { server, client, _ in
            let events = client.events()
            try await server.crash()
            let failed = try await firstEvent("failed", in: events) {
                if case .connectionStateChanged(.failed) = $0 { true } else { false }
            }
            guard case .connectionStateChanged(.failed(let error)) = failed else { return }
            #expect(error.code == .connectionTerminated || error.code == .connectionRefused)
            #expect(client.state == failed.connectionState)
        }
    }

    @Test("cancelling the task cancels its request and leaves the connection usable",
          arguments: SoundServerKind.allCases)
    func cancellation(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            try server.freeze()
            let request = Task { try await client.sinks() }
            try await waitForPendingRequests(client)
            request.cancel()
            try await withTimeout("the cancelled request to end") {
                await #expect(throws: CancellationError.self) { try await request.value }
            }
            #expect(client.core.pendingRequestCount == 0)
            try server.thaw()
            #expect(try await client.serverInfo().serverName.isEmpty == false)
            #expect(client.state == .ready)
        }
    }

    @Test("a task cancelled before its request starts never sends it", arguments: SoundServerKind.allCases)
    func cancelledBeforeStart(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { _, client, _ in
            let request = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.loadModule("module-null-sink", arguments: "sink_name=never_loaded")
            }
            await #expect(throws: CancellationError.self) { try await request.value }
            let sink = try await client.sink(named: "never_loaded")
            #expect(sink == nil)
        }
    }

    @Test("shutdown fails requests in flight, and later calls throw", arguments: SoundServerKind.allCases)
    func shutdownDuringRequest(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            try server.freeze()
            let request = Task { try await client.cards() }
            try await waitForPendingRequests(client)
            client.shutdown()
            let error = try await withTimeout("the request to fail") {
                await #expect(throws: PulseError.self) { try await request.value }
            }
            #expect(error?.code == .connectionTerminated)
            #expect(error?.reason == "the client was shut down")
            #expect(client.state == .shutDown)
            await #expect(throws: PulseError.self) { try await client.serverInfo() }
            await #expect(throws: PulseError.self) { try await client.connect() }
            client.shutdown()  // idempotent
            try server.thaw()
        }
    }

    @Test("many requests in flight all fail when the server dies", arguments: SoundServerKind.allCases)
    func manyPendingRequests(kind: SoundServerKind) async throws {
        try await withSandbox(kind, reconnect: .never) { server, client, _ in
            try server.freeze()
            let requests = (0..<50).map { _ in Task { try await client.serverInfo() } }
            try await waitForPendingRequests(client, count: 50)
            try await server.crash()
            for request in requests {
                try await withTimeout("every request to fail") {
                    await #expect(throws: PulseError.self) { try await request.value }
                }
            }
            #expect(client.core.pendingRequestCount == 0)
        }
    }
}

@Suite("Connecting")
struct ConnectingTests {
    @Test("no server at the address: connect throws at once and nothing is spawned")
    func unreachable() async throws {
        let client = PulseClient(configuration: .init(server: "/nonexistent/routekit/native"))
        defer { client.shutdown() }
        let error = try await withTimeout("connect to fail") {
            await #expect(throws: PulseError.self) { try await client.connect() }
        }
        #expect(error?.code == .connectionRefused)
        #expect(error?.operation == "connect to unix:/nonexistent/routekit/native")
        guard case .failed = client.state else {
            Issue.record("expected failed, got \(client.state)")
            return
        }
    }

    @Test("calls before connect throw instead of waiting")
    func notConnected() async throws {
        let client = PulseClient(configuration: .init(server: "/nonexistent/routekit/native"))
        defer { client.shutdown() }
        let error = await #expect(throws: PulseError.self) { try await client.sinks() }
        #expect(error?.code == .badState)
        #expect(client.state == .idle)
    }
}

extension PulseEvent {
    var connectionState: ConnectionState? {
        if case .connectionStateChanged(let state) = self { state } else { nil }
    }
}
