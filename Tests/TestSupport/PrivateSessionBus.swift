import Foundation
import Glibc
import SoundServerSandbox
import Synchronization

/// A private D-Bus session bus for one test: `dbus-daemon` with a configuration of its own in
/// a temporary directory — no service activation, so nothing installed on the machine
/// (callaudiod among others) can be started on it — listening on `unix:path=DIR/bus`.
///
/// Started with the sandbox's `posix_spawn` and ready once the daemon has printed its address
/// (it prints it after it listens: an event, not a sleep); stopped by its own pid.
/// ``restart()`` stops it and starts a new one at the same address, as a session bus that
/// goes away and comes back.
public final class PrivateSessionBus: Sendable {
    /// The folder holding the configuration and the socket.
    public let directory: String
    private let processID = Mutex<pid_t?>(nil)

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
    public static func start() async throws -> PrivateSessionBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-bus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let bus = PrivateSessionBus(directory: directory)
        try Self.configuration(listeningAt: bus.socketPath)
            .write(toFile: directory + "/session.conf", atomically: true, encoding: .utf8)
        try await bus.launch()
        return bus
    }

    /// Starts a bus, runs `body` with it, and stops it and removes its folder, also when `body` throws.
    public static func withBus<Result>(isolation: isolated (any Actor)? = #isolation,
                                       _ body: (PrivateSessionBus) async throws -> Result) async throws -> Result {
        let bus = try await start()
        defer { bus.remove() }
        return try await body(bus)
    }

    /// Stops the daemon (SIGTERM to its pid, then waits for it): every client loses the bus.
    public func stop() {
        guard let pid = processID.withLock({ pid in defer { pid = nil }; return pid }) else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        unlink(socketPath)
    }

    /// Starts the daemon again at the same address.
    public func restart() async throws {
        stop()
        try await launch()
    }

    /// Stops the daemon and removes the folder.
    public func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    private func launch() async throws {
        let reader = try spawnDaemon()
        // dbus-daemon prints its address once it listens; an early end of the pipe means it failed.
        let printed = try await withTimeout("dbus-daemon to print its address", .seconds(15)) {
            await Self.readLine(from: reader)
        }
        guard printed.hasPrefix("unix:") else {
            stop()
            let log = (try? String(contentsOfFile: directory + "/dbus-daemon.log", encoding: .utf8)) ?? ""
            throw BusStartFailure(message: "dbus-daemon did not start: \(printed) \(log)")
        }
    }

    /// Spawns the daemon with its standard output on a pipe; returns the pipe's read end.
    private func spawnDaemon() throws -> Int32 {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw BusStartFailure(message: "pipe: \(String(cString: strerror(errno)))")
        }
        // Not atomic (Swift's Glibc lacks pipe2), but the sandbox's spawn closes every
        // descriptor above 2 in its children anyway; this keeps other spawners' children out.
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        // Its warnings go to a log beside the socket; only the address comes through the pipe.
        let log = open(directory + "/dbus-daemon.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        // Only the child keeps the write end, so the pipe ends when the daemon does.
        defer {
            close(descriptors[1])
            if log >= 0 { close(log) }
        }
        let commandLine = ["/usr/bin/dbus-daemon", "--config-file=\(directory)/session.conf", "--nofork", "--nopidfile",
                           "--nosyslog", "--print-address"]
        do {
            let pid = try Spawn.spawn(commandLine, environment: ["PATH": "/usr/bin:/bin"],
                                      output: .descriptors(standardOutput: descriptors[1],
                                                           standardError: log >= 0 ? log : descriptors[1]))
            processID.withLock { $0 = pid }
        } catch {
            close(descriptors[0])
            throw error
        }
        return descriptors[0]
    }

    /// The first line written on `descriptor` (or everything, if it ends first), read on a
    /// thread of its own because read(2) blocks; closes the descriptor.
    private static func readLine(from descriptor: Int32) async -> String {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 512)
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    bytes += buffer[..<count]
                }
                close(descriptor)
                let text = String(decoding: bytes, as: UTF8.self)
                continuation.resume(returning: String(text.prefix { $0 != "\n" }))
            }
            thread.name = "PrivateSessionBus address reader"
            thread.start()
        }
    }

    private static func configuration(listeningAt socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
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
