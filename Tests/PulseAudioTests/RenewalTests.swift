import ConcurrencySupport
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// `renewConnection()` on real servers: a new connection takes over without the client ever
/// being disconnected, and on PipeWire it heals a copy of the graph that missed a change of
/// the default (Docs/Reliability.md, "The PipeWire default that never reaches long-lived
/// connections").
@Suite("Renewing a connection on real servers")
struct RenewalTests {
    @Test("requests in flight are answered, the state stays ready, and events go on", arguments: SoundServerKind.allCases)
    func seamless(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            _ = try await server.loadNullSink(name: "first_sink")
            try await waitUntil("first_sink listed", observer: client) { try await client.sink(named: "first_sink") != nil }
            let events = client.events()
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 { group.addTask { try await client.sinks().count } }
                group.addTask {
                    try await client.renewConnection()
                    return -1
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 >= 0 }.count == 40)
            #expect(answers.filter { $0 >= 0 }.allSatisfy { $0 >= 1 })
            #expect(client.state == .ready)

            _ = try await server.loadNullSink(name: "second_sink")
            let seen = try await withTimeout("second_sink's new event on the new connection") {
                var seen: [PulseEvent] = []
                for await event in events {
                    seen.append(event)
                    if case .subscription(let change) = event, change.facility == .sink, change.kind == .new { return seen }
                }
                return seen
            }
            #expect(!seen.contains { if case .connectionStateChanged = $0 { true } else { false } },
                    "the connection's state changed during the renewal: \(seen)")
            #expect(seen.contains { event in
                guard case .subscription(let change) = event else { return false }
                return change.facility == .server && change.kind == .change
            }, "no server change event after the renewal: \(seen)")
            #expect(try await client.sink(named: "second_sink") != nil)
        }
    }

    @Test("a stream's mutes sent as the connection is renewed are all answered and done", arguments: SoundServerKind.allCases)
    func commandsAcrossRenewals(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, observer in
            _ = try await server.loadNullSink(name: "speaker")
            _ = try await listedSink("speaker", by: client)
            let player = try await StreamProcess(on: server, .playback, device: "speaker", properties: ["media.role": "music"])
            defer { player.stop() }
            let pid = String(player.processID)
            try await waitUntil("the stream", observer: observer) {
                try await observer.sinkInputs().contains { $0.properties["application.process.id"] == pid }
            }
            let stream = try #require(try await client.sinkInputs().first { $0.properties["application.process.id"] == pid })
            // pipewire-pulse answers a mute only once it is done, after requests sent later:
            // the replaced connection must stay open until it has answered every one. Mutes
            // go out one after another for as long as each renewal takes.
            var sent = 0
            for round in 0..<10 {
                let renewed = LockedValue(false)
                async let renewal: Void = {
                    defer { renewed.withLock { $0 = true } }
                    try await client.renewConnection()
                }()
                var muted = false
                repeat {
                    muted.toggle()
                    try await client.setSinkInputMute(stream.index, muted: muted)
                    sent += 1
                } while !renewed.withLock({ $0 })
                try await renewal
                let expected = muted
                try await waitUntil("the stream \(expected ? "muted" : "unmuted"), round \(round)", observer: observer) {
                    try await observer.sinkInput(at: stream.index)?.isMuted == expected
                }
            }
            #expect(sent >= 10)
        }
    }

    @Test("a client that is not connected cannot renew")
    func notConnected() async throws {
        let client = PulseClient(configuration: .init(server: "unix:/nonexistent/routekit-renewal"))
        defer { client.shutdown() }
        let error = await #expect(throws: PulseError.self) { try await client.renewConnection() }
        #expect(error?.code == .badState)
    }

    /// The PipeWire daemon forwards a change of a client-owned metadata object only to the
    /// client binding it while any bind waits for the owner's answer
    /// (`module-metadata/metadata.c`, `metadata_property`: `impl->pending == 0 ||
    /// d->pong_seq != 0`). WirePlumber owns "default", and pipewire-pulse binds it for every
    /// client that connects: a change made while newcomers keep connecting
    /// (``NewcomerStorm``) is likely to reach none of the connections that were there before.
    /// On 0.3.65 a client given up while WirePlumber is frozen leaves a bind pending for good,
    /// so the test does that first and the first change is missed for certain; on 1.4 that
    /// only sometimes costs a change, and storms follow, up to sixty tries, each change given
    /// 2 s to reach the victim.
    @Test("on PipeWire a connection that missed a change of the default sees it once renewed")
    func missedDefaultHealed() async throws {
        try await withSandbox(.pipewire) { server, victim, setter in
            _ = try await server.loadNullSink(name: "first_sink", properties: ["priority.session": "2000"])
            _ = try await server.loadNullSink(name: "second_sink", properties: ["priority.session": "1000"])
            try await setter.setDefaultSink("first_sink")
            for client in [victim, setter] {
                try await waitUntil("first_sink the default", observer: client) {
                    try await client.serverInfo().defaultSinkName == "first_sink"
                }
            }
            // The fault itself first: on PipeWire 0.3.65 a client given up while WirePlumber
            // cannot answer makes every later change miss the connections already there, so the
            // first change is missed; where it is not (1.4), storms of newcomers provoke it.
            #expect(try await server.abandonConnectionWhileSessionManagerFrozen(), "pactl was answered while WirePlumber was frozen")
            var missed: String?
            var current = "first_sink"
            var attempts = 0
            while missed == nil, attempts < 60 {
                attempts += 1
                let target = current == "first_sink" ? "second_sink" : "first_sink"
                if attempts == 1 {
                    try await setter.setDefaultSink(target)
                    try await Self.waitUntilAfresh("\(target) the default", on: server, is: target)
                } else {
                    try await NewcomerStorm.during(server) {
                        try await setter.setDefaultSink(target)
                        try await Self.waitUntilAfresh("\(target) the default", on: server, is: target)
                    }
                }
                current = target
                do {
                    try await waitUntil("the victim to see \(target)", observer: victim, timeout: .seconds(2)) {
                        try await victim.serverInfo().defaultSinkName == target
                    }
                } catch is TimedOut {
                    missed = target
                }
            }
            let target = try #require(missed, "no change was missed in \(attempts) tries")
            #expect(try await Self.readAfresh(server).defaultSinkName == target)
            #expect(try await victim.serverInfo().defaultSinkName != target)

            try await victim.renewConnection()
            #expect(try await victim.serverInfo().defaultSinkName == target)
        }
    }

    /// Waits until a client connecting now sees `sink` as the default.
    private static func waitUntilAfresh(_ what: String, on server: SandboxServer, is sink: String) async throws {
        try await withTimeout(what, .seconds(10)) {
            while try await readAfresh(server).defaultSinkName != sink { await Task.yield() }
        }
    }

    /// The server's defaults as a client connecting now sees them.
    private static func readAfresh(_ server: SandboxServer) async throws -> ServerInfo {
        try await PulseClient.withConnection(.init(server: server.serverAddress, applicationName: "routekit-newcomer",
                                                   reconnectPolicy: .never)) { try await $0.serverInfo() }
    }
}
