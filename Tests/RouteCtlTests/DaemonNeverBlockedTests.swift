import DBus
import Foundation
import Glibc
import ProcessRunner
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon 2>pipe` where nothing reads the pipe (a stopped journal, a `| less` left
/// waiting): once the pipe is full every line meets a write that would wait. The daemon must
/// still answer on D-Bus and stop, putting the user's default back, within its stop bound.
@Suite("routectl daemon never blocked by its output")
struct DaemonNeverBlockedTests {
    /// How many devices are plugged while the pipe is full: each adds a `devices:` line naming
    /// them all, 800 KB of lines in all, ten times what a pipe and the backlog hold.
    static let deviceCount = 400
    /// SIGTERM to exit: the manager's restore timeout (4 s), and a second for the rest.
    static let stopBound = Duration.seconds(5)

    @Test("with standard error a pipe nobody reads and 400 devices plugged, Status answers and SIGTERM restores in time",
          arguments: SoundServerKind.allCases)
    func pipeNobodyReads(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            try await DaemonTests.setUpUserDefault(on: server)
            _ = try await server.loadNullSink(name: "bt_headset", properties: DaemonTests.headset)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let observer = try await clients.observer()
                let owners = try await observer.signals(matching: "type='signal',sender='org.freedesktop.DBus',"
                                                        + "member='NameOwnerChanged',arg0='io.github.routekit.RouteKit1'")
                // The pipe's only reader is a process that never reads.
                let (readEnd, writeEnd) = try ChildProcess.pipe()
                let sleeper = try await ChildProcess.launch(["/bin/sleep", "600"], environment: [:], input: readEnd,
                                                            output: .nullDevice, error: .separately(.nullDevice))
                defer { sleeper.signal(SIGKILL) }
                let daemon = try await RunningProcess(try Executable.built("routectl").url,
                                                      ["daemon", "--prefer", "bluetooth", "--prefer", "speakerphone",
                                                       "--log-level", "debug", "--server", server.socketPath],
                                                      environment: clients.environment, standardErrorTo: writeEnd)
                _ = try await owners.next("the daemon to own its name") { $0.arguments.last != .string("") }
                try await ServerObservation.waitForDefaultSink("bt_headset", on: server)

                try await Self.plugDevices(Self.deviceCount, on: server)
                let clock = ContinuousClock()
                var status: SessionBusClients.Output?
                let answered = try await clock.measure { status = try await clients.call("Status") }
                #expect(status?.status == 0, "\(String(describing: status))")
                #expect(status?.standardOutput.contains("bt_headset") == true, "\(String(describing: status))")
                #expect(answered < .seconds(2), "Status took \(answered)")
                try await ServerObservation.waitForDefaultSink("bt_headset", on: server)

                let sent = clock.now
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus(timeout: .seconds(20)) == 0)
                let stopped = sent.duration(to: clock.now)
                #expect(stopped < Self.stopBound, "stopping took \(stopped)")
                try await ServerObservation.waitForDefaultSink("virtual_out", on: server)
                FaultDrill.figure("never-blocked \(kind)", "Status \(answered), SIGTERM to exit \(stopped)")
                await observer.close()
            }
        }
    }

    /// How many `pactl` connections may be opening at once: PulseAudio listens with a backlog
    /// of 5, and with the daemon reading 400 devices the server can be slow to accept, so a
    /// sixth waiting connection is refused ("Connection refused", seen in CI with eight).
    static let plugsAtOnce = 3

    /// Plugs `count` plain outputs, `plugsAtOnce` at a time.
    static func plugDevices(_ count: Int, on server: SandboxServer) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if index >= plugsAtOnce { try await group.next() }
                group.addTask {
                    _ = try await server.loadNullSink(name: "extra_output_\(index)",
                                                      properties: ["device.description": "Extra Output \(index)"])
                }
            }
            try await group.waitForAll()
        }
    }
}
