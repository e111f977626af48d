import ArgumentParser
import Foundation
import SoundServerSandbox
import UnixSignals

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

            COMMAND runs in a process group of its own, in the terminal's foreground. \
            SIGTERM, SIGINT and SIGHUP sent to routekit-sandbox go to that group; if \
            COMMAND has not ended 5 seconds later, the group is killed. Either way the \
            servers are stopped and the temporary directory removed.

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
        // Trapped before anything starts: a signal no longer kills the sandbox before it has
        // cleaned up. One that comes while the servers start goes to the command once it runs.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        let status = try await SandboxServer.withServer(server) { sandbox in
            if devices == .demo {
                for device in DemoDevices.all {
                    _ = try await sandbox.loadNullSink(name: device.name, properties: device.properties)
                }
            }
            let environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { _, sandbox in sandbox }
            return try await ForegroundCommand.run(arguments, environment: environment, forwarding: signals)
        }
        throw ExitCode(status)
    }
}

extension SoundServerKind: ExpressibleByArgument {}
