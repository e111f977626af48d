import DBus
import TestSupport
import Testing

/// Every message is read under ``BusReadLimits`` and a subscription's ``SignalFilter``:
/// what passes them is refused or dropped before it is turned into values, and the
/// connection goes on.
@Suite("bounds on D-Bus input")
struct InputBoundsTests {
    /// `PropertiesChanged`'s shape, sent from the echo object.
    static func propertiesChanged(_ changed: [(String, BusValue)]) -> [BusValue] {
        [.string("org.mpris.MediaPlayer2.Player"), .variantDictionary(changed), .strings([])]
    }

    static let rule = "type='signal',interface='\(EchoInterface.name)',member='Changed'"

    @Test("a method argument over the limits is refused with LimitsExceeded naming the limit, before the object sees it")
    func oversizedArgument() async throws {
        try await withPeers { _, _, client, served in
            let bytes = BusValue.array(element: .byte, Array(repeating: .byte(7), count: 2 << 20))
            let refused = await #expect(throws: BusError.self) {
                try await client.call(EchoInterface.call("Echo", [.variant(bytes)]))
            }
            #expect(refused?.name == BusError.limitsExceededName)
            #expect(refused?.message.contains("limit of 1024 KiB") == true, "\(String(describing: refused))")

            let text = String(repeating: "x", count: BusReadLimits.methodCalls.maximumStringBytes + 1)
            let long = await #expect(throws: BusError.self) {
                try await client.call(EchoInterface.call("Concat", [.string(text), .uint32(1)]))
            }
            #expect(long?.name == BusError.limitsExceededName)
            #expect(long?.message.contains("limit of 65536 bytes") == true, "\(String(describing: long))")

            // Up to the limits, the same calls go through, and the object saw only these.
            let fits = String(repeating: "x", count: BusReadLimits.methodCalls.maximumStringBytes)
            let joined = try await client.call(EchoInterface.call("Concat", [.string(fits), .uint32(1)]))
            #expect(joined == [.string(fits)])
            let small = BusValue.array(element: .byte, Array(repeating: .byte(7), count: 1_000))
            let echoed = try await client.call(EchoInterface.call("Echo", [.variant(small)]))
            #expect(echoed == [.variant(small)])
            #expect(served.all == ["Concat", "Echo"])
        }
    }

    @Test("Properties calls, which sd-bus answers itself, are checked first: signature, limits, names; good ones still answered")
    func propertiesCalls() async throws {
        try await withPeers { _, _, client, _ in
            let properties = "org.freedesktop.DBus.Properties"
            func refusal(_ member: String, _ arguments: [BusValue]) async -> BusError? {
                await #expect(throws: BusError.self) {
                    try await client.call(EchoInterface.standard(properties, member, arguments))
                }
            }
            // One argument too many: sd-bus read the two it wanted and answered.
            let extra = await refusal("Get", [.string(EchoInterface.name), .string("Count"), .string("more")])
            #expect(extra?.name == BusError.invalidArgumentsName)
            #expect(extra?.message == "Get takes 'ss' (interface, property), not 'sss'")
            let extraAll = await refusal("GetAll", [.string(EchoInterface.name), .uint32(1)])
            #expect(extraAll?.message == "GetAll takes 's' (interface), not 'su'")

            // A name over the string limit: sd-bus read it whole and quoted it in its error.
            let huge = String(repeating: "a", count: BusReadLimits.methodCalls.maximumStringBytes + 1)
            let long = await refusal("Get", [.string(huge), .string("Count")])
            #expect(long?.name == BusError.limitsExceededName)
            #expect((long?.message.utf8.count ?? .max) < 200, "the error does not quote the name whole")

            // Control and format characters: sd-bus quoted them raw.
            let hostile = await refusal("Get", [.string("evil\u{1B}[2J.iface\u{202E}"), .string("Count")])
            #expect(hostile?.name == BusError.invalidArgumentsName)
            #expect(hostile?.message == "\"evil\\x1b[2J.iface\\u{202e}\" is not an interface name")
            let property = await refusal("Set", [.string(EchoInterface.name), .string("Count\n"), .variant(.uint32(1))])
            #expect(property?.message == "\"Count\\n\" is not a property name")

            // What is right is answered by sd-bus as before, an empty interface too.
            #expect(try await client.call(EchoInterface.standard(properties, "Get", [.string(EchoInterface.name), .string("Count")]))
                    == [.variant(.uint32(0))])
            let all = try await client.call(EchoInterface.standard(properties, "GetAll", [.string("")]))
            #expect(all.first?.variantDictionaryValue?["Label"] == .string("start"))
            let unknown = await refusal("Get", [.string(EchoInterface.name), .string("Missing")])
            #expect(unknown?.name == "org.freedesktop.DBus.Error.UnknownProperty")
        }
    }

    @Test("a signal over the limits is dropped unread, and the next one arrives")
    func oversizedSignal() async throws {
        try await withPeers { _, object, client, _ in
            let changes = try await client.signals(matching: Self.rule)
            let huge = String(repeating: "P", count: BusReadLimits.signals.maximumStringBytes + 1)
            object.emit("Changed", Self.propertiesChanged([("PlaybackStatus", .string(huge))]))
            let many = BusValue.strings(Array(repeating: "x", count: 20_000))
            object.emit("Changed", Self.propertiesChanged([("PlaybackStatus", .string("Paused")), ("CanPause", many)]))
            object.emit("Changed", Self.propertiesChanged([("PlaybackStatus", .string("Stopped"))]))
            var iterator = changes.makeAsyncIterator()
            let first = try #require(await iterator.next())
            #expect(first.arguments == Self.propertiesChanged([("PlaybackStatus", .string("Stopped"))]))
        }
    }

    @Test("a filter drops signals of another signature or sender unread, and skips the entries it does not want")
    func filteredSignals() async throws {
        try await withPeers { bus, object, client, _ in
            let serverName = try #require(try await client.owner(of: EchoInterface.busName))
            let wanted = SignalFilter(signature: "sa{sv}as", wantedKeys: ["PlaybackStatus"]) { $0 == serverName }
            let changes = try await client.signals(matching: "type='signal',interface='\(EchoInterface.name)'", filter: wanted)

            object.emit("Happened", [.string("another shape"), .uint32(1)])
            let padding = BusValue.array(element: .byte, Array(repeating: .byte(0), count: 4 << 20))
            object.emit("Changed", Self.propertiesChanged([("Padding", padding), ("PlaybackStatus", .string("Paused"))]))
            var iterator = changes.makeAsyncIterator()
            let first = try #require(await iterator.next())
            // The padding was skipped unread: only what was wanted is there.
            #expect(first.arguments == Self.propertiesChanged([("PlaybackStatus", .string("Paused"))]))

            // A sender the filter refuses: another connection sends the same signal.
            let other = try await BusConnection.open(.address(bus.address))
            let impostor = try await other.export(EchoInterface.interface, at: EchoInterface.path,
                                                  properties: EchoInterface.initialProperties)
            impostor.emit("Changed", Self.propertiesChanged([("PlaybackStatus", .string("Playing"))]))
            object.emit("Changed", Self.propertiesChanged([("PlaybackStatus", .string("Stopped"))]))
            let second = try #require(await iterator.next())
            #expect(second.sender == serverName)
            #expect(second.arguments == Self.propertiesChanged([("PlaybackStatus", .string("Stopped"))]))
            await other.close()
        }
    }

    @Test("a reply over the limits fails the call with LimitsExceeded, and the connection goes on")
    func oversizedReply() async throws {
        try await withPeers { _, _, client, _ in
            // Concat's answer: 1.2 MB of text, over the replies' 1 MiB a string.
            let refused = await #expect(throws: BusError.self) {
                try await client.call(EchoInterface.call("Concat", [.string(String(repeating: "y", count: 60_000)), .uint32(20)]))
            }
            #expect(refused?.name == BusError.limitsExceededName, "\(String(describing: refused))")
            let after = try await client.call(EchoInterface.call("Concat", [.string("ab"), .uint32(2)]))
            #expect(after == [.string("abab")])
        }
    }

    @Test("a client's calls past its in-flight limit are refused before they are read; another client and a later call go through")
    func callsInFlight() async throws {
        try await PrivateSessionBus.withBus { bus in
            let server = try await BusConnection.open(.address(bus.address))
            let limit = CallsInFlightLimit(perSender: 2, errorName: "org.routekit.Test.Error.LimitExceeded")
            let object = try await server.export(EchoInterface.interface, at: EchoInterface.path,
                                                 properties: EchoInterface.initialProperties, callsInFlight: limit)
            #expect(try await server.requestName(EchoInterface.busName) == .primaryOwner)
            let flooding = try await BusConnection.open(.address(bus.address))
            let other = try await BusConnection.open(.address(bus.address))
            try await withThrowingTaskGroup(of: Void.self) { group in
                var calls = object.calls.makeAsyncIterator()
                for _ in 0..<2 {
                    group.addTask { _ = try? await flooding.call(EchoInterface.call("Hang", timeout: .seconds(30))) }
                }
                let held = [try #require(await calls.next()), try #require(await calls.next())]
                let refused = await #expect(throws: BusError.self) { try await flooding.call(EchoInterface.call("Echo", [.variant(.uint32(1))])) }
                #expect(refused?.name == "org.routekit.Test.Error.LimitExceeded")
                #expect(refused?.message == "at most 2 calls in flight per client; wait for an answer first")
                // Another client is not held back by the first one's calls.
                group.addTask {
                    let answer = try await other.call(EchoInterface.call("Echo", [.variant(.uint32(2))]))
                    #expect(answer == [.variant(.uint32(2))])
                }
                let echo = try #require(await calls.next())
                #expect(echo.member == "Echo" && echo.sender != held[0].sender)
                echo.reply(echo.arguments)
                // Once one is answered, the client has room again.
                held[0].reply([])
                group.addTask { _ = try await flooding.call(EchoInterface.call("Echo", [.variant(.uint32(3))])) }
                let again = try #require(await calls.next())
                #expect(again.arguments == [.variant(.uint32(3))])
                again.reply(again.arguments)
                held[1].reply([])
                try await group.waitForAll()
                #expect(limit.inFlight(for: held[0].sender ?? "") == 0)
            }
            await flooding.close()
            await other.close()
            await server.close()
        }
    }
}
