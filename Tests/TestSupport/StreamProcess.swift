import Foundation
import SoundServerSandbox

/// A `pacat` process playing silence to a sink, or recording a source: a real client
/// stream (sink input or source output) on a sandbox server. Stopped by its pid.
public final class StreamProcess: Sendable {
    /// Playback (a sink input) or recording (a source output).
    public enum Direction: Sendable { case playback, record }

    private let process: Process

    /// Starts pacat against `server` on `device`.
    public init(on server: SandboxServer, _ direction: Direction, device: String, properties: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pacat")
        var arguments = [direction == .playback ? "--playback" : "--record", "--raw", "--device=\(device)"]
        arguments += properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" }
        arguments.append(direction == .playback ? "/dev/zero" : "/dev/null")
        process.arguments = arguments
        process.environment = server.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
    }

    /// The pacat process's pid, which the stream carries as `application.process.id`.
    public var processID: Int32 { process.processIdentifier }

    /// Kills pacat and waits for it.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
