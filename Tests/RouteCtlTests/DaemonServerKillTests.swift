import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// The sound server SIGKILLed at random moments while the daemon switches and calls go on:
/// every request made meanwhile ends, the daemon says the loss once and the return once, and
/// once the server is back (its devices plugged again) the route is the policy's answer.
/// `scripts/reliability/faults-server-kill` runs it 100 times a server.
@Suite("routectl daemon with its server SIGKILLed at random moments")
struct DaemonServerKillTests {
    /// What is under way when the server dies.
    enum Moment: CaseIterable {
        /// The headset unplugged and plugged again: a switch away and back.
        case switching
        /// A call started and ended over D-Bus: a switch to the call list and back.
        case calling
    }

    @Test("killed mid-switch and mid-call: each request ends, the loss and return are said once, the route is the policy's",
          .timeLimit(.minutes(60)), arguments: FaultDrill.serverKinds)
    func killedAtRandomMoments(kind: SoundServerKind) async throws {
        let drill = FaultDrill.fromEnvironment(defaultRepeats: 4)
        FaultDrill.figure("server-kill \(kind) seed", "\(drill.seed)")
        var random = DrillRandom(seed: drill.seed)
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let log = daemon.standardError
            var headset = try await Self.module(named: "bt_headset", on: server)
            var longest = Duration.zero
            let clock = ContinuousClock()
            for round in 1...drill.repeats {
                let moment = Moment.allCases.randomElement(using: &random)!
                let delay = Duration.milliseconds(Int.random(in: 0...60, using: &random))
                let plugged = headset
                let ended = try await withThrowingTaskGroup(of: Void.self) { group -> Duration in
                    // The moment's requests run while the server dies; each must end (answered
                    // or refused), not hang.
                    group.addTask { try? await Self.act(moment, server: server, clients: clients, headset: plugged) }
                    // A random moment inside the requests: the drill's point, not a wait for something.
                    try await Task.sleep(for: delay)
                    try await server.crash()
                    let started = clock.now
                    group.addTask {
                        try await Task.sleep(for: .seconds(15))
                        throw TimedOut(what: "the \(moment) requests to end after the kill in round \(round) (after \(delay))")
                    }
                    try await group.next()
                    group.cancelAll()
                    return started.duration(to: clock.now)
                }
                longest = max(longest, ended)
                try await server.restart()
                _ = try await server.loadNullSink(name: "speaker", properties: DBusAPITests.speaker)
                headset = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
                _ = try await log.next("the server back, round \(round)") { $0.hasPrefix("server: connected again after ") }
                // A call left active by the kill ends now; either way the policy's answer is the headset.
                _ = try await clients.call("EndCall")
                try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
                #expect(try await clients.property("Route") == "s \"bt_headset\"", "round \(round)")
            }
            let lines = log.lines
            #expect(lines.filter { $0.hasPrefix("server: connection lost") }.count == drill.repeats, "the loss said once a kill")
            #expect(lines.filter { $0.hasPrefix("server: connected again") }.count == drill.repeats, "the return said once a kill")
            #expect(!lines.contains { $0.contains("(attempt 2,") }, "no line for each attempt")
            FaultDrill.figure("server-kill \(kind) rounds", "\(drill.repeats)")
            FaultDrill.figure("server-kill \(kind) longest request after a kill", "\(longest)")
        }
    }

    /// Does what `moment` names; errors (the server gone) are the caller's to ignore.
    static func act(_ moment: Moment, server: SandboxServer, clients: SessionBusClients, headset: UInt32) async throws {
        switch moment {
        case .switching:
            try await server.unloadModule(headset)
            _ = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
        case .calling:
            _ = try await clients.call("StartCall")
            _ = try await clients.call("EndCall")
        }
    }

    /// The index of the module that made the sink `name`.
    static func module(named name: String, on server: SandboxServer) async throws -> UInt32 {
        let modules = try await server.pactl("list", "short", "modules")
        for line in modules.split(separator: "\n") where line.contains("sink_name=\(name)") {
            if let index = line.split(separator: "\t").first.flatMap({ UInt32($0) }) { return index }
        }
        throw ServerObservation.Failed(message: "no module made \(name): \(modules)")
    }
}
