import DBus
import TestSupport
import Testing

/// Following clients that leave the bus: NameOwnerChanged for unique names only.
@Suite("vanished bus names")
struct VanishedNamesTests {
    /// A new connection to `bus`, and its unique name as `watcher` sees it (found through a
    /// well-known name it takes, which it also loses when it goes).
    static func client(on bus: PrivateSessionBus, named name: String,
                       seenFrom watcher: BusConnection) async throws -> (BusConnection, String) {
        let connection = try await BusConnection.open(.address(bus.address))
        #expect(try await connection.requestName(name) == .primaryOwner)
        let unique = try #require(try await watcher.owner(of: name))
        return (connection, unique)
    }

    @Test("a connection that closes is reported once, by its unique name; one that stays is not")
    func closed() async throws {
        try await PrivateSessionBus.withBus { bus in
            let watcher = try await BusConnection.open(.address(bus.address))
            var vanished = try await watcher.vanishedNames().makeAsyncIterator()
            let (staying, stayingName) = try await Self.client(on: bus, named: "org.routekit.Test.Staying", seenFrom: watcher)
            let (leaving, leavingName) = try await Self.client(on: bus, named: "org.routekit.Test.Leaving", seenFrom: watcher)
            let (marker, markerName) = try await Self.client(on: bus, named: "org.routekit.Test.Marker", seenFrom: watcher)

            await leaving.close()
            #expect(await vanished.next() == leavingName)
            // Its well-known name went with it, and is not reported; nor is it reported twice:
            // the next name is the marker's, closed after it.
            await marker.close()
            #expect(await vanished.next() == markerName)
            #expect(try await watcher.owner(of: stayingName) == stayingName)

            await staying.close()
            #expect(await vanished.next() == stayingName)
            await watcher.close()
            #expect(await vanished.next() == nil)
        }
    }

    @Test("a well-known name released, or taken, by a client that stays is not a vanished name")
    func released() async throws {
        try await PrivateSessionBus.withBus { bus in
            let watcher = try await BusConnection.open(.address(bus.address))
            let raw = try await watcher.signals(matching: VanishedBusNames.matchRule)
            var vanished = try await watcher.vanishedNames().makeAsyncIterator()
            let (client, clientName) = try await Self.client(on: bus, named: "org.routekit.Test.Client", seenFrom: watcher)
            let release = BusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", member: "ReleaseName",
                                  arguments: [.string("org.routekit.Test.Client")])
            #expect(try await client.call(release) == [.uint32(1)])  // DBUS_RELEASE_NAME_REPLY_RELEASED
            #expect(try await client.requestName("org.routekit.Test.Again") == .primaryOwner)
            #expect(try await watcher.owner(of: "org.routekit.Test.Client") == nil)

            let marker = try await BusConnection.open(.address(bus.address))
            #expect(try await marker.requestName("org.routekit.Test.Marker") == .primaryOwner)
            let markerName = try #require(try await watcher.owner(of: "org.routekit.Test.Marker"))
            await marker.close()
            #expect(await vanished.next() == markerName)

            // The match rule itself keeps name acquisitions away: the first signals the bus sent
            // are the release of the client's name, then the marker's well-known and unique names.
            var signals = raw.makeAsyncIterator()
            var seen: [[BusValue]] = []
            for _ in 0..<3 { seen.append(try #require(await signals.next()).arguments) }
            #expect(seen == [[.string("org.routekit.Test.Client"), .string(clientName), .string("")],
                             [.string("org.routekit.Test.Marker"), .string(markerName), .string("")],
                             [.string(markerName), .string(markerName), .string("")]])
            await client.close()
            await watcher.close()
        }
    }

    @Test("only the bus's NameOwnerChanged of a unique name with no new owner is a vanished name")
    func parsing() {
        func signal(_ arguments: [BusValue], sender: String? = "org.freedesktop.DBus",
                    member: String = "NameOwnerChanged") -> BusSignalMessage {
            BusSignalMessage(sender: sender, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                             member: member, arguments: arguments)
        }
        #expect(signal([.string(":1.7"), .string(":1.7"), .string("")]).vanishedUniqueName == ":1.7")
        #expect(signal([.string("org.example.App"), .string(":1.7"), .string("")]).vanishedUniqueName == nil)
        #expect(signal([.string(":1.7"), .string(""), .string(":1.7")]).vanishedUniqueName == nil)
        #expect(signal([.string(":1.7"), .string(":1.7"), .string("")], sender: ":1.3").vanishedUniqueName == nil)
        #expect(signal([.string(":1.7"), .string(":1.7"), .string("")], member: "NameLost").vanishedUniqueName == nil)
        #expect(signal([.objectPath(":1.7"), .string(":1.7"), .string("")]).vanishedUniqueName == nil)
        #expect(signal([.string(":1.7"), .string(":1.7")]).vanishedUniqueName == nil)
    }
}
