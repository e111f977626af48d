import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon` started by D-Bus activation, as the package's service file starts it: the
/// first call to the name starts the daemon, which owns the name before it has read the
/// server's devices. That call must be decided on the devices.
@Suite("routectl daemon started by D-Bus activation")
struct DBusActivationTests {
    static let name = "io.github.routekit.RouteKit1"

    @Test("the call that starts the daemon is decided on the server's devices, not refused for want of any",
          arguments: SoundServerKind.allCases)
    func firstCallStartsTheDaemon(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.plugDevice("speaker", properties: DaemonTests.speaker)
            _ = try await server.plugDevice("bt_headset", properties: DaemonTests.headset)
            // Whichever the server chose, the call asks for the other.
            let before = try await ServerObservation.defaultSink(on: server)
            let asked = before == "bt_headset" ? "speaker" : "bt_headset"
            let home = server.directory + "/activated-daemon"
            let daemon = [try Executable.built("routectl").url.path, "daemon", "--prefer", "speakerphone",
                          "--server", server.socketPath]
            let command = ["XDG_STATE_HOME=\(home)/state", "XDG_CONFIG_HOME=\(home)/config"] + daemon
            try await PrivateSessionBus.withBus(activating: [Self.name: command]) { bus in
                let clients = SessionBusClients(bus: bus)
                let observer = try await clients.observer()
                let owners = try await observer.signals(
                    matching: "type='signal',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'")

                let used = try await clients.call("Use", "s", asked)
                // The activated daemon is the bus's child, not the test's: its pid, which the bus
                // tells, is taken at once, so that it is stopped on every path, failures too.
                let pid = try await clients.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                    "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", Self.name])
                let processID = Int32(pid.standardOutput.split(separator: " ").last ?? "")
                do {
                    #expect(used.status == 0, "\(used)")
                    #expect(used.standardOutput == "s \"\(asked)\"", "\(used)")
                    try await ServerObservation.waitForDefaultSink(asked, on: server)
                    let activated = try #require(processID, "\(pid)")
                    // Stopped by its pid, and seen gone when its name is released.
                    kill(activated, SIGTERM)
                    _ = try await owners.next("the daemon to release its name") {
                        $0.arguments.count == 3 && $0.arguments[2] == .string("")
                    }
                } catch {
                    if let processID { kill(processID, SIGKILL) }
                    throw error
                }
                try await ServerObservation.waitForDefaultSink(before, on: server)
            }
        }
    }
}
