import PulseAudio
import RouteKitTesting
import Testing

/// The simulated server honours task cancellation as `PulseClient` does: a request from a
/// cancelled task throws `CancellationError` and is not made; the server stays usable.
@Suite("Cancellation, as PulseClient")
struct CancellationTests {
    private func server() throws -> SimulatedServer {
        let server = SimulatedServer()
        _ = try server.addSink(DeviceBlueprint(name: "first"))
        _ = try server.addSink(DeviceBlueprint(name: "second"))
        return server
    }

    /// Runs `request` in a task that is cancelled before it starts it.
    private func inCancelledTask<Value: Sendable>(
        _ request: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, any Error> {
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await request()
        }.result
    }

    @Test("a cancelled task's read throws CancellationError")
    func cancelledRead() async throws {
        let server = try server()
        let result = await inCancelledTask { try await server.sinks() }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await server.sinks().count == 2, "the server answers the next task")
    }

    @Test("a cancelled task's command throws CancellationError and is never made")
    func cancelledCommand() async throws {
        let server = try server()
        let before = try await server.serverInfo().defaultSinkName
        let other = before == "first" ? "second" : "first"
        server.failNextCommand(.setDefaultSink, with: .accessDenied)
        let result = await inCancelledTask { try await server.setDefaultSink(other) }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(server.receivedCommands.isEmpty)
        #expect(try await server.serverInfo().defaultSinkName == before)
        // The scheduled failure is still waiting for the next command, which is made.
        await #expect(throws: PulseError.self) { try await server.setDefaultSink(other) }
        try await server.setDefaultSink(other)
        #expect(try await server.serverInfo().defaultSinkName == other)
    }
}
