@testable import PulseAudio
import SoundServerSandbox
import Synchronization
import Testing

/// Tasks that prefer a client's ``PulseClient/loopExecutor`` run on libpulse's own thread,
/// talk to the server from there, and never get lost: not under many producers, not after
/// the client is shut down, not when the client is shut down from that thread.
@Suite("The loop-thread executor")
struct LoopThreadExecutorTests {
    @Test("a task that prefers it runs on libpulse's thread, before and after each answer",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func runsOnTheLoopThread(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            let loop = client.core.loop
            try await withTaskExecutorPreference(client.loopExecutor) {
                #expect(loop.isLoopThread)
                let info = try await client.serverInfo()
                #expect(loop.isLoopThread, "resumed by the answer's callback on the same thread")
                let sinks = try await client.sinks()
                #expect(loop.isLoopThread)
                #expect(sinks.contains { $0.name == info.defaultSinkName } || info.defaultSinkName == nil)
                // Child tasks inherit the preference: a batch of lookups goes out from the thread too.
                let onLoop = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for sink in sinks {
                        group.addTask {
                            _ = try await client.sink(at: sink.index)
                            return loop.isLoopThread
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(onLoop.allSatisfy { $0 })
            }
            #expect(!loop.isLoopThread, "the caller's own executor again after the scope")
        }
    }

    @Test("1 000 tasks queued from many threads at once all run, each on the loop thread",
          .timeLimit(.minutes(1)))
    func manyProducers() async {
        let client = PulseClient(configuration: .init(applicationName: "routekit-executor-test"))
        defer { client.shutdown() }
        let loop = client.core.loop
        let ran = await withTaskGroup(of: Bool.self) { outer in
            for _ in 0..<1_000 {
                outer.addTask {
                    await withTaskExecutorPreference(client.loopExecutor) {
                        await Task.yield()
                        return loop.isLoopThread
                    }
                }
            }
            return await outer.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(ran.count == 1_000)
        #expect(ran.allSatisfy { $0 })
    }

    @Test("after shutdown its tasks still run, on the global executor", .timeLimit(.minutes(1)))
    func afterShutdown() async {
        let client = PulseClient(configuration: .init(applicationName: "routekit-executor-test"))
        let loop = client.core.loop
        client.shutdown()
        let ranOnLoop = await withTaskExecutorPreference(client.loopExecutor) {
            await Task.yield()
            return loop.isLoopThread
        }
        #expect(!ranOnLoop)
    }

    @Test("a task on the loop thread that shuts its client down: the client ends, its events finish",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func shutdownFromTheLoopThread(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-test"))
            try await client.connect()
            let events = client.events()
            try await withTaskExecutorPreference(client.loopExecutor) {
                _ = try await client.serverInfo()
                #expect(client.core.loop.isLoopThread)
                client.shutdown()
            }
            for await _ in events {}
            #expect(client.state == .shutDown)
            await #expect(throws: PulseError.self) { try await client.serverInfo() }
        }
    }
}
