import DBus
import Foundation
import SoundServerSandbox
import TestSupport
import Testing

/// The bounds the daemon's D-Bus API puts on a client (RouteKitLimits): each refused with
/// `LimitExceeded` naming the limit, with everything as it was.
@Suite("routectl daemon's D-Bus API: bounds on clients")
struct DBusLimitsTests {
    static let limitExceeded = "io.github.routekit.RouteKit1.Error.LimitExceeded"

    static func call(_ member: String, _ arguments: [BusValue] = []) -> BusCall {
        BusCall(destination: "io.github.routekit.RouteKit1", path: "/io/github/routekit/RouteKit1",
                interface: "io.github.routekit.RouteKit1", member: member, arguments: arguments, timeout: .seconds(20))
    }

    @Test("too many preferences, too long a name and too many open calls are refused naming the limit; nothing changes",
          arguments: SoundServerKind.allCases)
    func refusedLimits(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, _ in
            let many = try await clients.busctl(["call", "io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1",
                                                 "io.github.routekit.RouteKit1", "SetPreferences", "as", "65"]
                                                + Array(repeating: "speakerphone", count: 65))
            #expect(many.status != 0)
            #expect(many.standardError.contains("65 preferences given: at most 64 preferences"), "\(many)")
            #expect(try await clients.property("Preferences") == "as 2 \"bluetooth\" \"speakerphone\"")

            let long = try await clients.call("Use", "s", String(repeating: "s", count: 300))
            #expect(long.standardError.contains("has 300 bytes: at most 256 bytes"), "\(long)")
            #expect(try await clients.property("Selection") == "s \"\"")
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset")

            let client = try await clients.observer()
            for number in 1...8 {
                _ = try await client.call(Self.call("OpenCall", [.string("call-\(number)"), .string("active")]))
            }
            let ninth = await #expect(throws: BusError.self) {
                try await client.call(Self.call("OpenCall", [.string("call-9"), .string("active")]))
            }
            #expect(ninth?.name == Self.limitExceeded)
            #expect(ninth?.message.contains("at most 8 open calls per client") == true, "\(String(describing: ninth))")
            let status = try await client.call(Self.call("Status")).first?.variantDictionaryValue
            #expect(status?["Calls"]?.arrayValue?.count == 8, "\(String(describing: status))")
            // Room again once one is closed.
            _ = try await client.call(Self.call("CloseCall", [.string("call-1")]))
            _ = try await client.call(Self.call("OpenCall", [.string("call-9"), .string("active")]))
            await client.close()
        }
    }

    @Test("with the server frozen, a client's calls past 16 in flight are refused at once naming the limit; Status is answered at once meanwhile; the 16 after the thaw")
    func callsInFlight() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio) { server, clients, _ in
            let flooding = try await clients.observer()
            let other = try await clients.observer()
            // Frozen, the server answers no mute: each MuteMic waits in flight until the thaw,
            // so the 17th and later are past the limit whatever the machine's speed.
            try server.freeze()
            var thawed = false
            defer { if !thawed { try? server.thaw() } }
            let outcomes = try await withThrowingTaskGroup(of: String.self, returning: [String].self) { group in
                for _ in 0..<100 {  // under the bus's own 128 pending replies a connection
                    group.addTask {
                        do {
                            _ = try await flooding.call(Self.call("MuteMic", [.boolean(false)]))
                            return "answered"
                        } catch {
                            return (error as? BusError)?.description ?? "\(error)"
                        }
                    }
                }
                var outcomes: [String] = []
                while outcomes.count < 84, let outcome = try await group.next() { outcomes.append(outcome) }
                // Status is answered on the bus's thread from what is published: the 16 calls
                // waiting for the frozen server hold it back no more than the server does (the
                // way through a task read the microphone's mute, up to 500 ms).
                let clock = ContinuousClock()
                var status: [String: BusValue]?
                let took = try await clock.measure { status = try await other.call(Self.call("Status")).first?.variantDictionaryValue }
                #expect(status?["Route"] == .string("bt_headset"))
                #expect(status?["MicMuted"] == .boolean(false) && status?["PreferencesOrigin"] != nil, "\(String(describing: status))")
                #expect(took < .milliseconds(250), "Status took \(took) with 16 calls waiting for a frozen server")
                try server.thaw()
                thawed = true
                while let outcome = try await group.next() { outcomes.append(outcome) }
                return outcomes
            }
            let refused = outcomes.filter { $0 != "answered" }
            #expect(refused.count == 84, "\(Set(outcomes))")
            #expect(refused.allSatisfy { $0.contains(Self.limitExceeded) && $0.contains("at most 16 calls in flight per client") },
                    "\(Set(refused))")
            #expect(outcomes.count(where: { $0 == "answered" }) == 16, "the 16 in flight answered after the thaw: \(Set(outcomes))")
            // The flood is over: the same client is answered again.
            let again = try await flooding.call(Self.call("Status"))
            #expect(again.count == 1)
            await flooding.close()
            await other.close()
        }
    }
}
