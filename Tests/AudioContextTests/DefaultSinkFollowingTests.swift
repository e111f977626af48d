import AudioContext
import ConcurrencySupport
import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// What silent mode and volume capture read of the server as events come: the default
/// sink's own change is one lookup, a server change that keeps the default is the server's
/// information alone, and only a new default (or a start) lists the sinks.
@Suite("Following the default sink")
struct DefaultSinkFollowingTests {
    private func serverWithTwoSinks() throws -> SimulatedServer {
        let server = SimulatedServer()
        _ = try server.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        _ = try server.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        return server
    }

    @Test("a start lists the sinks once; the default's own change is one lookup of it")
    func ownChange() async throws {
        let simulated = try serverWithTwoSinks()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("speaker")
        let server = ReadCountingServer(simulated)
        var following = DefaultSinkFollowing()

        guard case .read("speaker", let sink?) = try await following.read(after: nil, from: server) else {
            Issue.record("the speaker, read at start")
            return
        }
        #expect(server.reads == ReadCount(serverInfo: 1, lists: 1, lookups: 0))

        try await simulated.setSinkMute("speaker", muted: true)
        let change = SubscriptionEvent(facility: .sink, kind: .change, index: sink.index)
        #expect(following.matters(change))
        guard case .read("speaker", let muted?) = try await following.read(after: change, from: server) else {
            Issue.record("the speaker, read again")
            return
        }
        #expect(muted.isMuted)
        #expect(server.reads == ReadCount(serverInfo: 1, lists: 1, lookups: 1), "one lookup, no list")
    }

    @Test("a server change that keeps the default reads only the server; a new default lists the sinks")
    func serverChanges() async throws {
        let simulated = try serverWithTwoSinks()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("speaker")
        let server = ReadCountingServer(simulated)
        var following = DefaultSinkFollowing()
        _ = try await following.read(after: nil, from: server)
        let serverChange = SubscriptionEvent(facility: .server, kind: .change, index: 0)

        try await simulated.setDefaultSource("speaker.monitor")
        #expect(try await following.read(after: serverChange, from: server) == .unchanged)
        #expect(server.reads == ReadCount(serverInfo: 2, lists: 1, lookups: 0))

        try await simulated.setDefaultSink("headset")
        guard case .read("headset", let headset?) = try await following.read(after: serverChange, from: server) else {
            Issue.record("the headset, the new default")
            return
        }
        #expect(following.index == headset.index)
        #expect(server.reads == ReadCount(serverInfo: 3, lists: 2, lookups: 0))
    }

    @Test("other sinks do not matter while the default is listed; its removal is read, and then new sinks matter")
    func otherSinksAndRemoval() async throws {
        let simulated = try serverWithTwoSinks()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("headset")
        let server = ReadCountingServer(simulated)
        var following = DefaultSinkFollowing()
        guard case .read(_, let headset?) = try await following.read(after: nil, from: server),
              let speaker = try await simulated.sinks().first(where: { $0.name == "speaker" }) else {
            Issue.record("both sinks listed")
            return
        }
        #expect(!following.matters(SubscriptionEvent(facility: .sink, kind: .change, index: speaker.index)))
        #expect(!following.matters(SubscriptionEvent(facility: .sink, kind: .new, index: 99)))
        #expect(!following.matters(SubscriptionEvent(facility: .sinkInput, kind: .change, index: 0)))

        try simulated.removeSink(named: "headset")
        let removal = SubscriptionEvent(facility: .sink, kind: .remove, index: headset.index)
        #expect(following.matters(removal))
        let afterRemoval = try await following.read(after: removal, from: server)
        if case .read(_, let sink) = afterRemoval { #expect(sink?.name != "headset") } else { Issue.record("read: \(afterRemoval)") }
        if following.index == nil {
            #expect(following.matters(SubscriptionEvent(facility: .sink, kind: .new, index: 99)), "waiting for a sink, new ones matter")
        }
    }

    @Test("a read that fails forgets: the next one reads it all")
    func failureForgets() async throws {
        let simulated = try serverWithTwoSinks()
        defer { simulated.shutdown() }
        try await simulated.setDefaultSink("speaker")
        let server = ReadCountingServer(simulated)
        var following = DefaultSinkFollowing()
        _ = try await following.read(after: nil, from: server)
        server.failing = true
        await #expect(throws: PulseError.self) {
            try await following.read(after: SubscriptionEvent(facility: .server, kind: .change, index: 0), from: server)
        }
        #expect(following.index == nil && following.name == nil)
        server.failing = false
        _ = try await following.read(after: SubscriptionEvent(facility: .server, kind: .change, index: 0), from: server)
        #expect(server.reads.lists == 2, "listed again after the failure")
    }
}

/// Reads by kind.
struct ReadCount: Equatable, Sendable {
    var serverInfo = 0
    var lists = 0
    var lookups = 0
}

/// A simulated server that counts the reads a follower makes, and can fail them.
final class ReadCountingServer: ForwardingServer, Sendable {
    let base: SimulatedServer
    private let state = LockedValue((count: ReadCount(), failing: false))

    init(_ base: SimulatedServer) { self.base = base }

    var reads: ReadCount { state.withLock { $0.count } }
    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    private func count(_ bump: (inout ReadCount) -> Void) throws {
        let failing = state.withLock { state in
            bump(&state.count)
            return state.failing
        }
        if failing { throw PulseError(.connectionTerminated, operation: "read", reason: "failing on purpose") }
    }

    func serverInfo() async throws -> ServerInfo {
        try count { $0.serverInfo += 1 }
        return try await base.serverInfo()
    }

    func sinks() async throws -> [SinkInfo] {
        try count { $0.lists += 1 }
        return try await base.sinks()
    }

    func sink(at index: UInt32) async throws -> SinkInfo? {
        try count { $0.lookups += 1 }
        return try await base.sink(at: index)
    }
}
