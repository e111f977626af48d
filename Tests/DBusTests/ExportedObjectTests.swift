import DBus
import Testing

/// An exported object as other clients see it: calls checked by sd-bus, introspection,
/// properties, signals, and calls that never get an answer.
@Suite("exported objects")
struct ExportedObjectTests {
    @Test("a call with the wrong argument types is refused before the object sees it, naming the types it takes")
    func wrongTypes() async throws {
        try await withPeers { _, _, client, served in
            let error = await #expect(throws: BusError.self) {
                try await client.call(EchoInterface.call("Concat", [.uint32(3), .string("ab")]))
            }
            #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(error?.message.contains("expecting 'su'") == true, "\(String(describing: error))")
            // A call that goes through afterwards is the first the object sees.
            _ = try await client.call(EchoInterface.call("Concat", [.string("a"), .uint32(1)]))
            #expect(served.all == ["Concat"])
        }
    }

    @Test("an unknown method is refused")
    func unknownMethod() async throws {
        try await withPeers { _, _, client, served in
            let error = await #expect(throws: BusError.self) { try await client.call(EchoInterface.call("Nothing")) }
            #expect(error?.name == "org.freedesktop.DBus.Error.UnknownMethod")
            #expect(served.all.isEmpty)
        }
    }

    @Test("introspection names the methods, their arguments, the properties and the signals")
    func introspection() async throws {
        try await withPeers { _, _, client, _ in
            let answer = try await client.call(EchoInterface.standard("org.freedesktop.DBus.Introspectable", "Introspect"))
            let xml = try #require(answer.first?.stringValue)
            #expect(xml.contains("<interface name=\"org.routekit.Test.Echo\">"))
            #expect(xml.contains("<method name=\"Concat\">"))
            #expect(xml.contains("<arg type=\"s\" name=\"text\" direction=\"in\"/>"), "\(xml)")
            #expect(xml.contains("<arg type=\"s\" name=\"joined\" direction=\"out\"/>"), "\(xml)")
            #expect(xml.contains("<property name=\"Count\" type=\"u\" access=\"read\">"), "\(xml)")
            #expect(xml.contains("<signal name=\"Happened\">"))
            #expect(xml.contains("<arg type=\"u\" name=\"count\"/>"), "\(xml)")
        }
    }

    @Test("properties are read with Get and GetAll, and only changed ones are announced")
    func properties() async throws {
        try await withPeers { _, object, client, _ in
            let changes = try await client.signals(matching:
                "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(EchoInterface.path)'")
            let properties = "org.freedesktop.DBus.Properties"
            #expect(try await client.call(EchoInterface.standard(properties, "Get", [.string(EchoInterface.name), .string("Count")]))
                    == [.variant(.uint32(0))])

            object.setProperties(["Count": .uint32(1), "Label": .string("start")])
            object.setProperties(["Count": .uint32(1)])  // no change: nothing announced
            object.setProperties(["Label": .string("second")])
            var iterator = changes.makeAsyncIterator()
            let first = try #require(await iterator.next())
            #expect(first.arguments.first == .string(EchoInterface.name))
            #expect(first.arguments.dropFirst().first?.variantDictionaryValue == ["Count": .uint32(1)])
            let second = try #require(await iterator.next())
            #expect(second.arguments.dropFirst().first?.variantDictionaryValue == ["Label": .string("second")])

            let all = try await client.call(EchoInterface.standard(properties, "GetAll", [.string(EchoInterface.name)]))
            #expect(all.first?.variantDictionaryValue == ["Count": .uint32(1), "Label": .string("second")])
        }
    }

    @Test("signals reach a subscriber, with their arguments")
    func signals() async throws {
        try await withPeers { _, object, client, _ in
            let happened = try await client.signals(matching: "type='signal',interface='\(EchoInterface.name)',member='Happened'")
            object.emit("Happened", [.string("plugged"), .uint32(2)])
            var iterator = happened.makeAsyncIterator()
            let signal = try #require(await iterator.next())
            #expect(signal.arguments == [.string("plugged"), .uint32(2)])
            #expect(signal.path == EchoInterface.path)
        }
    }

    @Test("a call the object drops unanswered is answered with an error, not left to time out")
    func dropped() async throws {
        try await withPeers { _, _, client, _ in
            let started = ContinuousClock.now
            let error = await #expect(throws: BusError.self) { try await client.call(EchoInterface.call("Drop")) }
            #expect(error?.name == "org.freedesktop.DBus.Error.Failed")
            #expect(error?.message.contains("was not answered") == true)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("a cancelled call ends with CancellationError and the connection goes on")
    func cancelled() async throws {
        try await withPeers { _, _, client, _ in
            let hanging = Task { try await client.call(EchoInterface.call("Hang", timeout: .seconds(60))) }
            hanging.cancel()
            await #expect(throws: CancellationError.self) { try await hanging.value }
            let answer = try await client.call(EchoInterface.call("Concat", [.string("x"), .uint32(2)]))
            #expect(answer == [.string("xx")])
        }
    }

    @Test("a call that outlives its timeout fails with NoReply")
    func timeout() async throws {
        try await withPeers { _, _, client, _ in
            let error = await #expect(throws: BusError.self) {
                try await client.call(EchoInterface.call("Hang", timeout: .milliseconds(200)))
            }
            #expect(error?.name == "org.freedesktop.DBus.Error.NoReply")
        }
    }
}
