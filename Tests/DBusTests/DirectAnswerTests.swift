import ConcurrencySupport
import DBus
import TestSupport
import Testing

/// Methods answered on the connection's thread (``DirectAnswer``): at once while the object's
/// calls wait unread, past a client's in-flight limit, and handed to ``ExportedObject/calls``
/// when the answer declines.
@Suite("Direct answers on the connection's thread")
struct DirectAnswerTests {
    @Test("a direct method is answered while every other call waits unread; nil hands it to the calls; the limit does not count it")
    func answeredWhileCallsWait() async throws {
        try await PrivateSessionBus.withBus { bus in
            let server = try await BusConnection.open(.address(bus.address))
            let answering = LockedValue(true)
            let echo = DirectAnswer { arguments in
                answering.withLock { $0 } ? [.variant(.string("direct: \(arguments.count) argument"))] : nil
            }
            let limit = CallsInFlightLimit(perSender: 2, errorName: "org.routekit.Test.Error.LimitExceeded")
            let object = try await server.export(EchoInterface.interface, at: EchoInterface.path,
                                                 properties: EchoInterface.initialProperties, callsInFlight: limit,
                                                 directAnswers: ["Echo": echo])
            #expect(try await server.requestName(EchoInterface.busName) == .primaryOwner)
            let client = try await BusConnection.open(.address(bus.address))
            try await withThrowingTaskGroup(of: Void.self) { group in
                var calls = object.calls.makeAsyncIterator()
                // The client's two calls in flight, left unanswered: its limit is reached.
                for _ in 0..<2 {
                    group.addTask { _ = try? await client.call(EchoInterface.call("Hang", timeout: .seconds(30))) }
                }
                let held = [try #require(await calls.next()), try #require(await calls.next())]
                // Echo is still answered, by the closure, a hundred times over.
                for _ in 0..<100 {
                    let answer = try await client.call(EchoInterface.call("Echo", [.variant(.uint32(1))]))
                    #expect(answer == [.variant(.string("direct: 1 argument"))])
                }
                // Another method is refused at the limit, as before.
                let refused = await #expect(throws: BusError.self) { try await client.call(EchoInterface.call("Drop")) }
                #expect(refused?.name == "org.routekit.Test.Error.LimitExceeded")
                // Declined: the call reaches the object's calls, its arguments intact.
                held[0].reply([])
                answering.withLock { $0 = false }
                group.addTask {
                    let answer = try await client.call(EchoInterface.call("Echo", [.variant(.uint32(7))]))
                    #expect(answer == [.variant(.uint32(7))])
                }
                let delivered = try #require(await calls.next())
                #expect(delivered.member == "Echo" && delivered.arguments == [.variant(.uint32(7))])
                delivered.reply(delivered.arguments)
                held[1].reply([])
                try await group.waitForAll()
                #expect(limit.inFlight(for: held[0].sender ?? "") == 0)
            }
            await client.close()
            await server.close()
        }
    }
}
