import Foundation
import Glibc
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import SoundServerSandbox
import Testing

/// `routectl daemon` run as a user runs it, against sandboxed servers with virtual devices
/// (Docs/VirtualDevices.md): every wait reads the daemon's own lines or the server's events,
/// and has a time limit, so that a broken daemon fails the test instead of hanging it.
@Suite("routectl daemon")
struct DaemonTests {
    static let speaker = ["device.form_factor": "internal", "device.description": "Speaker"]
    static let headset = ["device.bus": "bluetooth", "device.form_factor": "headset",
                          "device.description": "BT Headset"]

    /// The user's default before the daemon: a virtual sink, which no kind preference picks,
    /// beside a speaker.
    static func setUpUserDefault(on server: SandboxServer) async throws {
        _ = try await server.loadNullSink(name: "virtual_out")
        _ = try await server.loadNullSink(name: "speaker", properties: speaker)
        _ = try await server.pactl("set-default-sink", "virtual_out")
        try await ServerObservation.waitForDefaultSink("virtual_out", on: server)
    }

    @Test("follows a Bluetooth headset in and out, and puts the default back on SIGTERM",
          arguments: SoundServerKind.allCases)
    func followsHeadset(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(kind) { server in
            try await Self.setUpUserDefault(on: server)

            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "bluetooth", "--prefer", "speakerphone",
                                                       "--server", server.socketPath])
            let log = daemon.standardError
            let running = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            #expect(running.contains("preferring bluetooth, then speakerphone"))
            _ = try await log.next("the route on the speaker") { $0.hasPrefix("route: speaker (Speaker) <- ") }
            #expect(try await ServerObservation.defaultSink(on: server) == "speaker")

            let plugged = try await server.loadNullSink(name: "bt_headset", properties: Self.headset)
            _ = try await log.next("the devices with the headset") { $0.hasPrefix("devices: 3 ") && $0.contains("bt_headset") }
            let toHeadset = try await log.next("the switch to the headset") { $0.hasPrefix("route: bt_headset ") }
            #expect(toHeadset == "route: bt_headset (BT Headset) <- speaker (deviceAppeared)", "\(log.lines)")
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset")

            try await server.unloadModule(plugged)
            let back = try await log.next("the route back on the speaker") { $0.hasPrefix("route: speaker (Speaker) <- ") }
            #expect(back == "route: speaker (Speaker) <- bt_headset (deviceFailed)", "\(log.lines)")
            #expect(try await ServerObservation.defaultSink(on: server) == "speaker")

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
            let lines = try await log.all()
            #expect(lines.last == "daemon: stopped", "\(lines)")
            let virtualName = kind == .pipewire ? "virtual_out Audio/Sink sink" : "Null Output"
            #expect(lines.contains("route: virtual_out (\(virtualName)) <- speaker (stopped)"), "\(lines)")
            #expect(try await daemon.standardOutput.all().isEmpty, "stdout stays free for other uses")
            try await ServerObservation.waitForDefaultSink("virtual_out", on: server)
            if kind == .pipewire {
                // pipewire-pulse pins every default a client sets; the user's own must come back.
                #expect(try await ServerObservation.configuredDefaultSink(on: server) == "virtual_out")
            }
        }
    }

    @Test("on PipeWire, a default nobody configured is not left configured after stop")
    func leavesNoConfiguredDefault() async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(.pipewire) { server in
            _ = try await server.loadNullSink(name: "virtual_out")
            _ = try await server.loadNullSink(name: "speaker", properties: Self.speaker)
            #expect(try await ServerObservation.configuredDefaultSink(on: server) == nil)

            // Only --server: the daemon finds PipeWire's metadata beside pipewire-pulse's socket.
            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "speakerphone", "--server", server.socketPath])
            _ = try await daemon.standardError.next("the route on the speaker") { $0.hasPrefix("route: speaker (Speaker) <- ") }
            #expect(try await ServerObservation.configuredDefaultSink(on: server) == "speaker")

            daemon.send(SIGINT)
            #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
            let configured = try await ServerObservation.configuredDefaultSink(on: server)
            #expect(configured == nil, "configured \(configured ?? "none") after stop; \(daemon.standardError.lines)")
            #expect(!daemon.standardError.lines.contains { $0.contains("configured defaults unreadable") })
        }
    }

    @Test("--prefer virtual is a usage error that says to name the device")
    func virtualPreference() async throws {
        let routectl = try Executable.built("routectl")
        for value in ["virtual", "external"] {
            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "bluetooth", "--prefer", value,
                                                       "--server", "/nonexistent/native"])
            #expect(try await daemon.exitStatus() == 64)
            let message = try await daemon.standardError.all().joined(separator: "\n")
            #expect(message.contains("--prefer \(value): \(value) devices"), "\(message)")
            #expect(message.contains("name the device exactly, with its id from 'routectl list'"), "\(message)")
            #expect(message.contains("Kinds: bluetooth, wiredHeadset (or wired-headset), speakerphone, earpiece"), "\(message)")
        }
    }

    @Test("a misspelled kind is a usage error that suggests the kind, not a device id that never matches")
    func misspelledPreference() async throws {
        let routectl = try Executable.built("routectl")
        let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "bluetoth", "--server", "/nonexistent/native"])
        #expect(try await daemon.exitStatus() == 64)
        let message = try await daemon.standardError.all().joined(separator: "\n")
        #expect(message.contains("--prefer bluetoth: no such kind; did you mean bluetooth?"), "\(message)")
    }

    @Test("no server: a clear message and exit status 69")
    func unreachable() async throws {
        let routectl = try Executable.built("routectl")
        let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "bluetooth", "--server", "/nonexistent/routekit/native"])
        #expect(try await daemon.exitStatus() == 69)
        let message = try await daemon.standardError.all().joined(separator: "\n")
        #expect(message.hasPrefix("routectl: cannot reach a sound server at /nonexistent/routekit/native: Connection refused."),
                "\(message)")
    }

    @Test("--help teaches with an example")
    func help() async throws {
        let routectl = try Executable.built("routectl")
        let help = try await routectl.run(["daemon", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("routectl daemon --prefer bluetooth --prefer speakerphone"))
        #expect(help.standardOutput.contains("route: bt_headset (BT Headset) <- speaker (deviceAppeared)"))
        let top = try await routectl.run(["--help"])
        #expect(top.standardOutput.contains("daemon"))
    }

    @Test("the configured defaults are read from the PipeWire behind the pulse socket, or not at all")
    func pipeWireBesideSocket() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routectl-pw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/pulse", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // pipewire-pulse's socket, but no PipeWire socket beside it (PulseAudio's layout): none.
        #expect(ConfiguredDefaultsSource.pipeWireDirectory(serving: "unix:\(directory)/pulse/native") == nil)
        #expect(FileManager.default.createFile(atPath: directory + "/pipewire-0", contents: nil))
        #expect(ConfiguredDefaultsSource.pipeWireDirectory(serving: "unix:\(directory)/pulse/native") == directory)
        #expect(ConfiguredDefaultsSource.pipeWireDirectory(serving: "\(directory)/pulse/native") == directory)
        #expect(ConfiguredDefaultsSource.pipeWireDirectory(serving: "\(directory)/native") == nil)
        #expect(ConfiguredDefaultsSource.pipeWireDirectory(serving: "tcp:localhost:4713") == nil)
    }
}
