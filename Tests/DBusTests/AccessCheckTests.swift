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
        try await withPeers { bus, _, client, _ in
            let serverName = try #require(try await client.owner(of: EchoInterface.busName))
            let monitor = try await CredentialQueries(address: bus.address)
            defer { monitor.stop() }
            // The monitor sees the client's own query: from then on it sees every one.
            let clientName = try await monitor.waitUntilListening {
                _ = try? await client.call(Self.bus("GetConnectionCredentials", [.string(serverName)]))
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
    private let seen = LockedValue<[String]>([])
    /// Each query's sender, as dbus-monitor prints it.
    private let arrivals: AsyncStream<String>

    init(address: String) async throws {
        let seen = seen
        let (arrivals, continuation) = AsyncStream.makeStream(of: String.self)
        self.arrivals = arrivals
        let rules = ["GetConnectionCredentials", "GetConnectionUnixUser", "GetConnectionUnixProcessID"]
            .map { "type='method_call',destination='org.freedesktop.DBus',member='\($0)'" }
        process = try await ChildProcess.launch(
            ["/usr/bin/dbus-monitor", "--address", address] + rules, environment: ProcessInfo.processInfo.environment,
            output: .lines(onLine: { _, line in
                guard line.hasPrefix("method call"), let field = line.split(separator: " ").first(where: { $0.hasPrefix("sender=") }) else { return }
                let sender = String(field.dropFirst("sender=".count))
                seen.withLock { $0.append(sender) }
                continuation.yield(sender)
            }, onEnd: { continuation.finish() }),
            error: .separately(.nullDevice))
    }

    /// The senders of the queries seen since ``waitUntilListening(_:)``.
    var senders: [String] { seen.withLock { $0 } }

    /// Sends `query` until dbus-monitor shows one (it has installed its rules only then: there
    /// is no event for that, so the query is repeated every 20 ms); returns its sender, and
    /// forgets what was seen so far.
    func waitUntilListening(_ query: @escaping @Sendable () async -> Void) async throws -> String {
        try await withTimeout("dbus-monitor listening", .seconds(10)) {
            while self.seen.withLock({ $0.isEmpty }) {
                await query()
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return seen.withLock { seen in
            defer { seen.removeAll() }
            return seen[0]
        }
    }

    /// Waits until a query of `sender`'s has been seen since ``waitUntilListening(_:)``
    /// (each arrival wakes it to look; those from before were forgotten there).
    func waitForQuery(from sender: String) async throws {
        let arrivals = arrivals
        try await withTimeout("a credential query of \(sender)'s seen", .seconds(10)) {
            var wakes = arrivals.makeAsyncIterator()
            while !self.senders.contains(sender) {
                guard await wakes.next() != nil else { throw BusError.failed("dbus-monitor ended") }
            }
        }
    }

    func stop() { process.signal(SIGKILL) }
}
