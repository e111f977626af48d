import DBus
import Glibc
import TestSupport
import Testing

/// Names, and the ends of a connection: closed by its owner, or lost with the bus.
@Suite("bus connections")
struct ConnectionTests {
    @Test("a name is owned once; the bus says who owns it, and the owner's pid")
    func names() async throws {
        try await withPeers { bus, _, client, _ in
            #expect(try await client.requestName(EchoInterface.busName) == .taken)
            #expect(try await client.requestName("org.routekit.Test.Other") == .primaryOwner)
            #expect(try await client.requestName("org.routekit.Test.Other") == .alreadyOwner)
            let owner = try #require(try await client.owner(of: EchoInterface.busName))
            #expect(owner.hasPrefix(":1."))
            #expect(try await client.processID(ofOwnerOf: EchoInterface.busName) == UInt32(getpid()))
            #expect(try await client.owner(of: "org.routekit.Test.Nobody") == nil)
        }
    }

    @Test("no bus at the address: opening fails with Disconnected, naming the address")
    func noBus() async throws {
        let error = await #expect(throws: BusError.self) {
            _ = try await BusConnection.open(.address("unix:path=/nonexistent/routekit/bus"))
        }
        #expect(error?.name == "org.freedesktop.DBus.Error.Disconnected")
        #expect(error?.message.contains("unix:path=/nonexistent/routekit/bus") == true)
    }

    @Test("close() ends the connection as closed; later calls fail at once")
    func close() async throws {
        try await PrivateSessionBus.withBus { bus in
            let connection = try await BusConnection.open(.address(bus.address))
            let object = try await connection.export(EchoInterface.interface, at: EchoInterface.path,
                                                     properties: EchoInterface.initialProperties)
            await connection.close()
            #expect(await connection.disconnection() == .closed)
            #expect(connection.isDisconnected)
            var calls = object.calls.makeAsyncIterator()
            #expect(await calls.next() == nil)
            let error = await #expect(throws: BusError.self) { try await connection.requestName("org.routekit.Test") }
            #expect(error?.name == "org.freedesktop.DBus.Error.Disconnected")
        }
    }

    @Test("the bus going away is seen at once: the connection is lost, calls under way fail, objects' calls end")
    func lost() async throws {
        try await withPeers { bus, object, client, served in
            let hanging = Task { try await client.call(EchoInterface.call("Hang", timeout: .seconds(60))) }
            // Under way once the object has it: a Concat answered after it proves nothing, since
            // the task may send Hang after Concat (seen under ThreadSanitizer: Hang sent once the
            // bus was gone, failing as Disconnected).
            try await withTimeout("the hanging call at the object", .seconds(10)) {
                while !served.all.contains("Hang") { await Task.yield() }
            }
            await bus.stop()
            #expect(await client.disconnection() != .closed)
            let error = await #expect(throws: BusError.self) { try await hanging.value }
            #expect(error?.name == "org.freedesktop.DBus.Error.NoReply", "\(String(describing: error))")
            var calls = object.calls.makeAsyncIterator()
            while await calls.next() != nil {}
        }
    }

    @Test("the session address comes from DBUS_SESSION_BUS_ADDRESS, else XDG_RUNTIME_DIR")
    func sessionAddress() {
        #expect(BusAddress.address("unix:path=/run/user/1000/bus").socketPath == "/run/user/1000/bus")
        #expect(BusAddress.address("unix:abstract=/tmp/dbus-x,guid=1").socketPath == nil)
        #expect(BusAddress.address("unix:path=/tmp/with%20space/bus;tcp:host=x").socketPath == "/tmp/with space/bus")
        let session = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/session/bus", "XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(BusAddress.session.resolved(reading: { session[$0] }) == "unix:path=/tmp/session/bus")
        #expect(BusAddress.session.resolved(reading: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil })
            == "unix:path=/run/user/1000/bus")
        #expect(BusAddress.session.resolved(reading: { _ in nil }) == nil)
    }

    @Test("the system address comes from DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket; never the session's")
    func systemAddress() {
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/system/bus",
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/session/bus"]
        #expect(BusAddress.system.resolved(reading: { environment[$0] }) == "unix:path=/tmp/system/bus")
        #expect(BusAddress.system.resolved(reading: { $0 == "DBUS_SESSION_BUS_ADDRESS" ? "unix:path=/tmp/session/bus" : nil })
            == "unix:path=/run/dbus/system_bus_socket")
        #expect(BusAddress.system.resolved(reading: { _ in nil }) == BusAddress.defaultSystemBusAddress)
        #expect(BusAddress.address(BusAddress.defaultSystemBusAddress).socketPath == "/run/dbus/system_bus_socket")
        #expect(BusAddress.system.description.hasPrefix("the system bus ("))
    }
}
