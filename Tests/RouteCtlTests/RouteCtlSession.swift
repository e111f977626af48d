import Foundation
import PulseAudio
import SoundServerSandbox
import TestSupport

/// routectl as one user runs it in the tests: a sandboxed server with virtual devices, and a
/// session of its own — configuration, state and runtime directories in a temporary folder,
/// no session bus unless a test gives one — so that nothing reaches the machine's own files,
/// server or bus, and tests run side by side.
struct RouteCtlSession: Sendable {
    let routectl: Executable
    let server: SandboxServer
    /// The temporary folder holding the session's directories.
    let home: URL

    var configHome: String { home.appendingPathComponent("config").path }
    var stateHome: String { home.appendingPathComponent("state").path }
    var runtimeDirectory: String { home.appendingPathComponent("runtime").path }
    /// Where the daemon keeps preferences set at run time.
    var stateFile: String { stateHome + "/routekit/state.json" }
    /// The daemon's default configuration file.
    var defaultConfigFile: String { configHome + "/routekit/routekit.toml" }

    /// The variables routectl sees changed from the test's own: its XDG directories, and none
    /// of those that could lead it to another server or bus.
    var environmentChanges: [String: String?] {
        ["XDG_CONFIG_HOME": configHome, "XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": runtimeDirectory,
         "PULSE_SERVER": nil, "PIPEWIRE_RUNTIME_DIR": nil, "PIPEWIRE_REMOTE": nil, "DBUS_SESSION_BUS_ADDRESS": nil,
         "NO_COLOR": nil]
    }

    /// The whole environment routectl runs in.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in environmentChanges { environment[name] = value }
        return environment
    }

    /// Runs `routectl ARGUMENTS --server SOCKET` to its end; `extra` changes the environment more.
    func run(_ arguments: [String], server named: Bool = true, extra: [String: String?] = [:]) async throws -> Executable.Output {
        try await routectl.run(arguments + (named ? ["--server", server.socketPath] : []),
                               environment: environmentChanges.merging(extra) { _, new in new })
    }

    /// Starts `routectl ARGUMENTS --server SOCKET` in the background (the daemon, the monitor).
    func start(_ arguments: [String]) async throws -> RunningProcess {
        try await RunningProcess(routectl.url, arguments + ["--server", server.socketPath], environment: environment)
    }

    /// Writes the default configuration file.
    func writeConfiguration(_ text: String, to path: String? = nil) throws {
        let path = path ?? defaultConfigFile
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A sandboxed server of `kind` with a speaker, a wired (USB) headset and a Bluetooth
    /// headset, audio on the Bluetooth one, and a session for routectl.
    static func with(_ kind: SoundServerKind, _ body: (RouteCtlSession) async throws -> Void) async throws {
        try await with(kind, setUp: { server in
            _ = try await server.plugDevice("speaker", properties: DeviceProperties.speaker, microphone: false)
            _ = try await server.loadNullSink(name: "usb_headset", properties: DeviceProperties.wiredHeadset)
            _ = try await server.loadNullSink(name: "bt_headset", properties: DeviceProperties.bluetoothHeadset)
            _ = try await server.pactl("set-default-sink", "bt_headset")
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
        }, body)
    }

    /// A sandboxed server of `kind` with the devices `setUp` makes, and a session for routectl.
    static func with(_ kind: SoundServerKind, setUp: (SandboxServer) async throws -> Void,
                     _ body: (RouteCtlSession) async throws -> Void) async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(kind) { server in
            try await withTemporaryDirectory("routectl-session") { home in
                try FileManager.default.createDirectory(at: home.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try await setUp(server)
                try await body(RouteCtlSession(routectl: routectl, server: server, home: home))
            }
        }
    }

    /// Adds the speaker's built-in microphone (a source that is no monitor, paired with the
    /// speaker) and makes it the default source.
    func addMicrophone(named name: String = "builtin_mic") async throws {
        var properties = DeviceProperties.speaker
        properties["device.name"] = "speaker"
        properties["device.description"] = "Internal Microphone"
        _ = try await server.loadMicrophone(name: name, properties: properties)
        try await ServerObservation.waitForSource(name, on: server)
        _ = try await server.pactl("set-default-source", name)
        try await ServerObservation.waitForDefaultSource(name, on: server)
    }
}

/// The virtual devices' properties (Docs/VirtualDevices.md).
enum DeviceProperties {
    static let speaker = ["device.form_factor": "internal", "device.description": "Speaker"]
    static let wiredHeadset = ["device.bus": "usb", "device.form_factor": "headset", "device.description": "USB Headset"]
    static let bluetoothHeadset = ["device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "BT Headset"]
}

extension ServerObservation {
    /// Waits, event by event, until `check` holds on the server, read through a connection of
    /// the test's own.
    static func waitUntil(_ what: String, on server: SandboxServer, timeout: Duration = .seconds(10),
                          _ check: @escaping @Sendable (PulseClient) async throws -> Bool) async throws {
        let client = PulseClient(configuration: .init(server: server.socketPath, applicationName: "routectl-tests",
                                                      reconnectPolicy: .never))
        defer { client.shutdown() }
        let events = client.events()
        try await client.connect()
        try await withTimeout(what, timeout) {
            if try await check(client) { return }
            // The connection may miss a default set by a new client meanwhile (``whileRenewing``).
            try await whileRenewing(client) {
                for await event in events {
                    guard case .subscription = event else { continue }
                    if try await check(client) { return }
                }
            }
        }
    }

    /// Waits until the server's default source is `name`.
    static func waitForDefaultSource(_ name: String, on server: SandboxServer) async throws {
        try await waitUntil("the default source to become \(name)", on: server) { try await $0.serverInfo().defaultSourceName == name }
    }

    /// Waits until a source named `name` exists.
    static func waitForSource(_ name: String, on server: SandboxServer) async throws {
        try await waitUntil("a source \(name)", on: server) { try await $0.source(named: name) != nil }
    }
}
