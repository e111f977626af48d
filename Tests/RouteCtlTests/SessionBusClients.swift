import DBus
import Foundation
import SoundServerSandbox
import TestSupport

/// The clients a user of the daemon's D-Bus API runs, against a test's private session bus:
/// `busctl --user`, `callaudiocli`, and `routectl daemon` itself. Each runs with
/// `DBUS_SESSION_BUS_ADDRESS` naming the private bus and no variable that could lead it to
/// another sound server.
struct SessionBusClients {
    let bus: PrivateSessionBus

    /// What a finished client wrote, and its status.
    struct Output: Sendable, CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var description: String { "status \(status); stdout: \(standardOutput); stderr: \(standardError)" }
    }

    var environment: [String: String] {
        var environment = bus.environment
        for name in ["PULSE_SERVER", "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE"] { environment[name] = nil }
        // The daemon keeps preferences set over D-Bus in its state file: in the bus's folder,
        // never the user's, and no configuration file of the user's either.
        environment["XDG_STATE_HOME"] = bus.directory + "/state"
        environment["XDG_CONFIG_HOME"] = bus.directory + "/config"
        return environment
    }

    /// Runs `program` (an absolute path) to its end.
    func run(_ program: String, _ arguments: [String]) async throws -> Output {
        let process = try await RunningProcess(URL(fileURLWithPath: program), arguments, environment: environment)
        let status = try await process.exitStatus(timeout: .seconds(20))
        return Output(status: status, standardOutput: try await process.standardOutput.all().joined(separator: "\n"),
                      standardError: try await process.standardError.all().joined(separator: "\n"))
    }

    /// `busctl --user ARGUMENTS`.
    func busctl(_ arguments: [String]) async throws -> Output {
        try await run("/usr/bin/busctl", ["--user"] + arguments)
    }

    /// `busctl --user call` on RouteKit1: `member`, then its signature and arguments as busctl takes them.
    func call(_ member: String, _ arguments: String...) async throws -> Output {
        try await busctl(["call", "io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1",
                          "io.github.routekit.RouteKit1", member] + arguments)
    }

    /// A RouteKit1 property as `busctl --user get-property` prints it: `s "speaker"`, `b true`.
    func property(_ name: String) async throws -> String {
        let output = try await busctl(["get-property", "io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1",
                                       "io.github.routekit.RouteKit1", name])
        guard output.status == 0 else { throw ServerObservation.Failed(message: "get-property \(name): \(output)") }
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A CallAudio property as busctl prints it: `u 1`.
    func callAudioProperty(_ name: String) async throws -> String {
        let output = try await busctl(["get-property", "org.mobian_project.CallAudio", "/org/mobian_project/CallAudio",
                                       "org.mobian_project.CallAudio", name])
        guard output.status == 0 else { throw ServerObservation.Failed(message: "get-property \(name): \(output)") }
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `callaudiocli ARGUMENTS`, libcallaudio's own client.
    func callaudiocli(_ arguments: String...) async throws -> Output {
        try await callaudiocli(arguments)
    }

    /// `callaudiocli ARGUMENTS` on the private bus.
    func callaudiocli(_ arguments: [String]) async throws -> Output {
        try await run("/usr/bin/callaudiocli", arguments)
    }

    /// `routectl daemon ARGUMENTS --server SERVER`, running; returns once it serves the API
    /// (its `dbus: serving` line).
    func daemon(_ arguments: [String], on server: SandboxServer) async throws -> RunningProcess {
        let daemon = try await RunningProcess(try Executable.built("routectl").url,
                                        ["daemon"] + arguments + ["--server", server.socketPath], environment: environment)
        _ = try await daemon.standardError.next("the daemon to serve the D-Bus API") { $0.hasPrefix("dbus: serving") }
        return daemon
    }

    /// A connection of the test's own, to await signals with.
    func observer() async throws -> BusConnection {
        try await BusConnection.open(.address(bus.address))
    }
}

extension AsyncStream<BusSignalMessage> {
    /// The next signal that matches, waiting at most `timeout`.
    func next(_ what: String, timeout: Duration = .seconds(15),
              where matches: @escaping @Sendable (BusSignalMessage) -> Bool = { _ in true }) async throws -> BusSignalMessage {
        try await withTimeout(what, timeout) {
            for await signal in self where matches(signal) { return signal }
            throw TimedOut(what: "\(what) (the bus connection ended)")
        }
    }
}
