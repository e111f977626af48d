import DBus
import TestSupport

/// Drives the DBus module hard enough to show a leak or a use after free: on a private bus,
/// thousands of calls carrying every type, property changes and signals through a match,
/// calls dropped unanswered, cancelled and timed out, objects and matches removed and added
/// again, then the bus lost under calls in flight, and a clean close. Run it under
/// AddressSanitizer and LeakSanitizer with `scripts/leak-check`; it exits non-zero if an
/// answer is wrong.
///
/// Usage: dbus-soak [calls]
@main
enum DBusSoak {
    static let echo = BusInterface(
        name: "org.routekit.Soak",
        methods: [BusMethod("Echo", arguments: [BusArgument("value", .variant)], results: [BusArgument("value", .variant)]),
                  BusMethod("Drop"), BusMethod("Hang")],
        properties: [BusProperty("Count", .uint32)],
        signals: [BusSignal("Tick", arguments: [BusArgument("count", .uint32)])])

    /// Every shape of value, built afresh (a global of them would be lazily-initialized
    /// storage that LeakSanitizer does not scan, and reports as leaked).
    static func values() -> [BusValue] {
        [.string("héllo"), .uint32(7), .boolean(true), .double(0.5), .objectPath("/a/b"), .strings(["x", "y"]),
         .variantDictionary([("k", .int64(-1)), ("l", .array(element: .byte, [.byte(1)]))]),
         .structure([.string("s"), .variant(.int16(-2))])]
    }

    static func main() async throws {
        let calls = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5_000
        let values = values()
        try await PrivateSessionBus.withBus { bus in
            let server = try await BusConnection.open(.address(bus.address))
            let client = try await BusConnection.open(.address(bus.address))
            var object = try await server.export(echo, at: "/org/routekit/Soak", properties: ["Count": .uint32(0)])
            guard try await server.requestName("org.routekit.Soak") == .primaryOwner else { throw SoakFailure("name") }
            func call(_ member: String, _ arguments: [BusValue] = [], timeout: Duration = .seconds(10)) -> BusCall {
                BusCall(destination: "org.routekit.Soak", path: "/org/routekit/Soak", interface: "org.routekit.Soak",
                        member: member, arguments: arguments, timeout: timeout)
            }

            var answered = 0, ticks = 0
            for round in 0..<2 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    let served = object
                    group.addTask {
                        var hanging: [BusMethodCall] = []
                        for await incoming in served.calls {
                            switch incoming.member {
                            case "Echo": incoming.reply(incoming.arguments)
                            case "Hang": hanging.append(incoming)
                            default: break
                            }
                        }
                    }
                    let tickStream = try await client.signals(matching: "type='signal',interface='org.routekit.Soak'")
                    for index in 0..<calls / 2 {
                        let value = values[index % values.count]
                        guard try await client.call(call("Echo", [.variant(value)])) == [.variant(value)] else {
                            throw SoakFailure("echo of \(value)")
                        }
                        answered += 1
                        if index % 10 == 0 {
                            served.setProperties(["Count": .uint32(UInt32(index))])
                            served.emit("Tick", [.uint32(UInt32(index))])
                        }
                        if index % 100 == 0 {
                            _ = try? await client.call(call("Drop"))
                            let hung = Task { try await client.call(call("Hang", timeout: .seconds(30))) }
                            hung.cancel()
                            _ = try? await hung.value
                            _ = try? await client.call(call("Hang", timeout: .milliseconds(1)))
                        }
                    }
                    // Both the Tick signals and the PropertiesChanged ones come through the match.
                    var iterator = tickStream.makeAsyncIterator()
                    while ticks < (round + 1) * calls / 20, await iterator.next() != nil { ticks += 1 }
                    served.remove()
                    try await group.waitForAll()
                }
                object = try await server.export(echo, at: "/org/routekit/Soak", properties: ["Count": .uint32(0)])
            }

            // The bus goes away under calls in flight: every one of them ends.
            let served = object
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var hanging: [BusMethodCall] = []
                    for await incoming in served.calls {
                        if incoming.member == "Echo" { incoming.reply(incoming.arguments) } else { hanging.append(incoming) }
                    }
                }
                for _ in 0..<20 { group.addTask { _ = try? await client.call(call("Hang", timeout: .seconds(30))) } }
                _ = try await client.call(call("Echo", [.variant(.uint32(1))]))
                await bus.stop()
                try await group.waitForAll()
            }
            guard await client.disconnection() != .closed, await server.disconnection() != .closed else { throw SoakFailure("loss") }
            await client.close()
            await server.close()
            print("dbus-soak: \(answered) calls answered, \(ticks) signals received, bus lost under 20 calls in flight")
        }
    }

    struct SoakFailure: Error, CustomStringConvertible {
        var description: String
        init(_ what: String) { description = "dbus-soak: wrong answer: \(what)" }
    }
}
