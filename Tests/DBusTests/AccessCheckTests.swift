import ConcurrencySupport
import DBus
import Foundation
import Glibc
import ProcessRunner
import TestSupport
import Testing

/// On a session bus the bus's policy is the access control: sd-bus asks the bus nothing of a
/// caller before running a method (as with sd_bus_open_user). Untrusted, it asked the bus for
/// each caller's credentials first, a blocking round trip on the connection's thread.
@Suite("access checks on the session bus")
struct AccessCheckTests {
    @Test("20 method calls to an exported object: the serving connection asks the bus for no caller's credentials")
    func noCredentialsQueries() async throws {
        try await PrivateSessionBus.withBus { bus in
            let server = try await BusConnection.open(.address(bus.address))
            let object = try await server.export(EchoInterface.interface, at: EchoInterface.path,
                                                 properties: EchoInterface.initialProperties)
            #expect(try await server.requestName(EchoInterface.busName) == .primaryOwner)
            let client = try await BusConnection.open(.address(bus.address))
            let serverName = try #require(try await client.call(Self.bus("GetNameOwner", [.string(EchoInterface.busName)])).first?.stringValue)
            let monitor = try await CredentialQueries(address: bus.address)
            defer { monitor.stop() }
            // The monitor sees the client's own query: from then on it sees every one.
            let clientName = try await monitor.waitUntilSeen { _ in
                _ = try? await client.call(Self.bus("GetConnectionCredentials", [.string(serverName)]))
                return true
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await call in object.calls { call.reply(call.arguments) }
                }
                for number in 0..<20 {
                    let answer = try await client.call(EchoInterface.call("Echo", [.variant(.uint32(UInt32(number)))]))
                    #expect(answer == [.variant(.uint32(UInt32(number)))])
                }
                // A last query of the client's, seen after anything the server sent before it.
                _ = try? await client.call(Self.bus("GetConnectionCredentials", [.string(serverName)]))
                try await monitor.waitForQuery(from: clientName)
                let fromServer = monitor.senders.filter { $0 == serverName }
                #expect(fromServer.isEmpty, "the server asked for a caller's credentials \(fromServer.count) times in 20 calls")
                group.cancelAll()
                await server.close()
            }
            await client.close()
        }
    }

    /// A call to the bus itself.
    static func bus(_ member: String, _ arguments: [BusValue]) -> BusCall {
        BusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: member, arguments: arguments, timeout: .seconds(10))
    }
}

/// `dbus-monitor` watching the bus's credential queries (GetConnectionCredentials,
/// GetConnectionUnixUser, GetConnectionUnixProcessID): the sender of each, in order.
final class CredentialQueries: Sendable {
    private let process: ChildProcess
    private let seen = LockedSenders()

    init(address: String) async throws {
        let seen = seen
        let rules = ["GetConnectionCredentials", "GetConnectionUnixUser", "GetConnectionUnixProcessID"]
            .map { "type='method_call',destination='org.freedesktop.DBus',member='\($0)'" }
        process = try await ChildProcess.launch(
            ["/usr/bin/dbus-monitor", "--address", address] + rules, environment: ProcessInfo.processInfo.environment,
            output: .lines(onLine: { _, line in
                guard line.hasPrefix("method call"), let sender = line.split(separator: " ").first(where: { $0.hasPrefix("sender=") }) else { return }
                seen.append(String(sender.dropFirst("sender=".count)))
            }, onEnd: {}),
            error: .separately(.nullDevice))
    }

    /// The senders of the queries seen so far.
    var senders: [String] { seen.all }

    /// Repeats `query` until the monitor has seen a query (it is listening then); returns its
    /// sender, and forgets what was seen.
    func waitUntilSeen(_ query: @escaping @Sendable (Int) async throws -> Bool) async throws -> String {
        try await withTimeout("dbus-monitor listening", .seconds(10)) {
            var attempt = 0
            while self.seen.all.isEmpty {
                _ = try await query(attempt)
                attempt += 1
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let first = seen.all[0]
        seen.removeAll()
        return first
    }

    /// Waits until a query of `sender`'s has been seen.
    func waitForQuery(from sender: String) async throws {
        try await withTimeout("a credential query of \(sender)'s seen", .seconds(10)) {
            while !self.seen.all.contains(sender) { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    func stop() { process.signal(SIGKILL) }
}

/// The senders, under a lock.
final class LockedSenders: Sendable {
    private let senders = LockedValue<[String]>([])
    var all: [String] { senders.withLock { $0 } }
    func append(_ sender: String) { senders.withLock { $0.append(sender) } }
    func removeAll() { senders.withLock { $0.removeAll() } }
}
