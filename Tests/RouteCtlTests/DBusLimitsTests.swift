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

    @Test("a client's calls past 16 in flight are refused at once naming the limit; another client's Status is answered")
    func callsInFlight() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio) { _, clients, _ in
            let flooding = try await clients.observer()
            let other = try await clients.observer()
            let outcomes = await withTaskGroup(of: String.self, returning: [String].self) { group in
                for _ in 0..<100 {  // under the bus's own 128 pending replies a connection
                    group.addTask {
                        do {
                            _ = try await flooding.call(Self.call("Status"))
                            return "answered"
                        } catch {
                            return (error as? BusError)?.description ?? "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let refused = outcomes.filter { $0 != "answered" }
            #expect(!refused.isEmpty, "100 Status calls at once, none refused")
            #expect(refused.allSatisfy { $0.contains(Self.limitExceeded) && $0.contains("at most 16 calls in flight per client") },
                    "\(Set(refused))")
            #expect(outcomes.count(where: { $0 == "answered" }) >= 16)
            let status = try await other.call(Self.call("Status")).first?.variantDictionaryValue
            #expect(status?["Route"] == .string("bt_headset"))
            // The flood is over: the same client is answered again.
            let again = try await flooding.call(Self.call("Status"))
            #expect(again.count == 1)
            await flooding.close()
            await other.close()
        }
    }
}
