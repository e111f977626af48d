import ArgumentParser
import Foundation
import SoundServerSandbox

/// `routekit-sandbox`: runs a command against a private sound server with virtual devices,
/// so that RouteKit (or anything else that speaks the pulse protocol) can be tried without
/// touching the machine's own audio.
@main
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routekit-sandbox",
        abstract: "Run a command against a private PulseAudio or PipeWire server with virtual devices.",
        discussion: """
            Starts an isolated server in a temporary directory (its own HOME, \
            XDG_RUNTIME_DIR and socket), adds the virtual devices asked for, runs COMMAND \
            with PULSE_SERVER pointing at it, then stops the server and exits with \
            COMMAND's status. Nothing reaches the machine's own sound server.

            Virtual devices are null sinks with ordinary properties (see Docs/Testing.md): \
            --devices demo adds a built-in speaker, a wired USB headset and a Bluetooth headset.

            Example: routekit-sandbox --server pipewire --devices demo -- routectl list
            """)

    enum DeviceSet: String, ExpressibleByArgument, CaseIterable {
        case none, demo
    }

    @Option(name: .long, help: "The server to start: pulseaudio or pipewire.")
    var server: SoundServerKind = .pulseaudio

    @Option(name: .long, help: "Virtual devices to add: none or demo.")
    var devices: DeviceSet = .demo

    @Argument(parsing: .postTerminator, help: "The command to run, and its arguments (after --).")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty {
            throw ValidationError("Give a command to run, after --.")
        }
    }

    func run() async throws {
        let arguments = command
        let status = try await SandboxServer.withServer(server) { sandbox in
            if devices == .demo {
                for device in DemoDevices.all {
                    _ = try await sandbox.loadNullSink(name: device.name, properties: device.properties)
                }
            }
            return try Self.runCommand(arguments, environment: sandbox.environment)
        }
        throw ExitCode(status)
    }

    /// Runs `arguments` with the sandbox's variables added to this process's environment,
    /// sharing this terminal, and returns its exit status.
    static func runCommand(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, sandbox in sandbox }
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }
}

extension SoundServerKind: ExpressibleByArgument {}
