import ConcurrencySupport
import DBus
import Glibc
import TestSupport
import Testing

/// The interface the tests export: every shape of call the wrapper must carry.
enum EchoInterface {
    static let name = "org.routekit.Test.Echo"
    static let path = "/org/routekit/Test/Echo"
    static let busName = "org.routekit.Test"

    static let interface = BusInterface(
        name: name,
        methods: [
            BusMethod("Echo", arguments: [BusArgument("value", .variant)], results: [BusArgument("value", .variant)]),
            BusMethod("Concat", arguments: [BusArgument("text", .string), BusArgument("count", .uint32)],
                      results: [BusArgument("joined", .string)]),
            BusMethod("Drop"),
            BusMethod("Hang"),
        ],
        properties: [BusProperty("Count", .uint32), BusProperty("Label", .string)],
        signals: [BusSignal("Happened", arguments: [BusArgument("what", .string), BusArgument("count", .uint32)]),
                  // PropertiesChanged's shape, for the tests of bounds on signals.
                  BusSignal("Changed", arguments: [BusArgument("interface", .string),
                                                   BusArgument("changed", .dictionary(key: .string, value: .variant)),
                                                   BusArgument("invalidated", .array(.string))])])

    static let initialProperties: [String: BusValue] = ["Count": .uint32(0), "Label": .string("start")]

    /// A call to the echo object from another connection.
    static func call(_ member: String, _ arguments: [BusValue] = [], timeout: Duration = .seconds(10)) -> BusCall {
        BusCall(destination: busName, path: path, interface: name, member: member, arguments: arguments, timeout: timeout)
    }

    /// A call to one of the standard interfaces sd-bus answers for the object.
    static func standard(_ interface: String, _ member: String, _ arguments: [BusValue] = []) -> BusCall {
        BusCall(destination: busName, path: path, interface: interface, member: member, arguments: arguments,
                timeout: .seconds(10))
    }
}

/// What the serving side saw, for tests that check a call never reached it.
final class ServedCalls: Sendable {
    private let members = LockedValue<[String]>([])
    func record(_ member: String) { members.withLock { $0.append(member) } }
    var all: [String] { members.withLock { $0 } }
}

/// A private bus, a connection serving the echo object under its name, and a second
/// connection to call it from. The serving loop answers Echo and Concat, drops Drop
/// unanswered, and never answers Hang until its caller gives up.
func withPeers(_ body: @Sendable (PrivateSessionBus, ExportedObject, BusConnection, ServedCalls) async throws -> Void)
    async throws {
    try await PrivateSessionBus.withBus { bus in
        let server = try await BusConnection.open(.address(bus.address))
        let client = try await BusConnection.open(.address(bus.address))
        let object = try await server.export(EchoInterface.interface, at: EchoInterface.path,
                                             properties: EchoInterface.initialProperties)
        #expect(try await server.requestName(EchoInterface.busName) == .primaryOwner)
        let served = ServedCalls()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var hanging: [BusMethodCall] = []
                for await call in object.calls {
                    served.record(call.member)
                    switch call.member {
                    case "Echo": call.reply(call.arguments)
                    case "Concat":
                        let text = call.arguments[0].stringValue ?? "", count = call.arguments[1].uint32Value ?? 0
                        call.reply([.string(String(repeating: text, count: Int(count)))])
                    case "Hang": hanging.append(call)
                    default: break  // Drop: dropped unanswered
                    }
                }
                _ = hanging
            }
            try await body(bus, object, client, served)
            await client.close()
            await server.close()
            try await group.waitForAll()
        }
    }
}
