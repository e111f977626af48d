import ConcurrencySupport
import Foundation
import Glibc
import ProcessRunner

/// A private D-Bus session bus for one test: `dbus-daemon` with a configuration of its own in
/// a temporary directory — no activation of what is installed on the machine (callaudiod
/// among others), only of the services a test names (``start(activating:)``) — listening on
/// `unix:path=DIR/bus`.
///
/// Started through the package's process runner (under `setpriv --pdeathsig KILL` where
/// installed, so that it dies with the test process) and ready once the daemon has printed its
/// address (it prints it after it listens: an event, not a sleep); stopped by its own pid.
/// ``restart()`` stops it and starts a new one at the same address, as a session bus that
/// goes away and comes back.
public final class PrivateSessionBus: Sendable {
    /// The folder holding the configuration and the socket.
    public let directory: String
    private let daemon = LockedValue<ChildProcess?>(nil)

    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    public var address: String { "unix:path=\(directory)/bus" }

    /// The socket's path.
    public var socketPath: String { directory + "/bus" }

    /// This process's environment with `DBUS_SESSION_BUS_ADDRESS` naming this bus, for the
    /// clients a test runs (busctl, callaudiocli, routectl).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    private init(directory: String) {
        self.directory = directory
    }

    /// Starts a bus in a new temporary directory, returning once it accepts connections.
    /// `activating` maps bus names to the command the bus starts when a client calls the name
    /// while nobody owns it (D-Bus activation, as a service file installed for the session
    /// bus does); the command gets `DBUS_SESSION_BUS_ADDRESS` naming this bus.
    public static func start(activating services: [String: [String]] = [:]) async throws -> PrivateSessionBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-bus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/services", withIntermediateDirectories: true)
        let bus = PrivateSessionBus(directory: directory)
        for (name, command) in services.sorted(by: { $0.key < $1.key }) {
            let exec = (["/usr/bin/env", "DBUS_SESSION_BUS_ADDRESS=\(bus.address)"] + command).joined(separator: " ")
            try "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n"
                .write(toFile: "\(directory)/services/\(name).service", atomically: true, encoding: .utf8)
        }
        try Self.configuration(listeningAt: bus.socketPath, services: directory + "/services")
            .write(toFile: directory + "/session.conf", atomically: true, encoding: .utf8)
        try await bus.launch()
        return bus
    }

    /// Starts a bus, runs `body` with it, and stops it and removes its folder, also when `body` throws.
    public static func withBus<Result>(isolation: isolated (any Actor)? = #isolation,
                                       activating services: [String: [String]] = [:],
                                       _ body: (PrivateSessionBus) async throws -> Result) async throws -> Result {
        let bus = try await start(activating: services)
        do {
            let result = try await body(bus)
            await bus.remove()
            return result
        } catch {
            await bus.remove()
            throw error
        }
    }

    /// Stops the daemon (SIGTERM to its pid, then waits until it is reaped): every client
    /// loses the bus.
    public func stop() async {
        guard let process = daemon.withLock({ daemon in defer { daemon = nil }; return daemon }) else { return }
        process.signal(SIGTERM)
        _ = await process.completion(within: nil)
        unlink(socketPath)
    }

    /// Starts the daemon again at the same address.
    public func restart() async throws {
        await stop()
        try await launch()
    }

    /// Stops the daemon and removes the folder.
    public func remove() async {
        await stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A bus released without ``remove()`` kills its daemon (no waiting).
    deinit {
        daemon.withLock { $0 }?.signal(SIGKILL)
    }

    private func launch() async throws {
        // dbus-daemon prints its address once it listens; an end of its output without a line
        // means it failed. Its warnings go to a log beside the socket.
        let (lines, printed) = AsyncStream.makeStream(of: String.self)
        // Under util-linux's setpriv where installed, as the sandbox's servers: the daemon dies
        // with the test process, even one that crashes or is killed.
        let daemonCommand = ["/usr/bin/dbus-daemon", "--config-file=\(directory)/session.conf", "--nofork", "--nopidfile",
                             "--nosyslog", "--print-address"]
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let process = try await ChildProcess.launch(
            setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + daemonCommand } ?? daemonCommand,
            environment: ["PATH": "/usr/bin:/bin"],
            output: .lines(onLine: { _, line in printed.yield(line) }, onEnd: { printed.finish() }),
            error: .separately(.appendingToFile(directory + "/dbus-daemon.log")))
        daemon.withLock { $0 = process }
        let address = try await withTimeout("dbus-daemon to print its address", .seconds(15)) {
            for await line in lines { return line }
            return ""
        }
        guard address.hasPrefix("unix:") else {
            await stop()
            let log = (try? String(contentsOfFile: directory + "/dbus-daemon.log", encoding: .utf8)) ?? ""
            throw BusStartFailure(message: "dbus-daemon did not start: \(address) \(log)")
        }
    }

    private static func configuration(listeningAt socket: String, services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// The bus could not be started.
    public struct BusStartFailure: Error, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// What went wrong.
        public var description: String { message }
    }
}
