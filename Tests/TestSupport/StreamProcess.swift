import Glibc
import ProcessRunner
import SoundServerSandbox

/// A `pacat` process playing silence to a sink or recording a source of a sandbox server: a
/// real client stream (sink input or source output), carrying its pid as
/// `application.process.id`.
///
/// Started through the package's process runner (nothing above fd 2 inherited, so no other
/// child can hold one of its descriptors open) and stopped with `SIGKILL` on its own pid,
/// never a recycled one: the runner signals only a child it has not reaped.
public final class StreamProcess: Sendable {
    /// Playback (a sink input) or recording (a source output).
    public enum Direction: Sendable { case playback, record }

    /// The pacat process's pid, which the stream carries as `application.process.id`.
    public let processID: pid_t
    private let process: ChildProcess

    /// Starts pacat against `server` on `device` (a sink or source name, or `@DEFAULT_SINK@`).
    public init(on server: SandboxServer, _ direction: Direction, device: String, properties: [String: String] = [:]) async throws {
        var commandLine = ["/usr/bin/pacat", direction == .playback ? "--playback" : "--record", "--raw", "--device=\(device)"]
        commandLine += properties.sorted { $0.key < $1.key }.map { "--property=\($0.key)=\($0.value)" }
        commandLine.append(direction == .playback ? "/dev/zero" : "/dev/null")
        process = try await ChildProcess.launch(commandLine, environment: server.environment, output: .nullDevice)
        processID = process.pid
    }

    /// Kills pacat (`SIGKILL`: it cannot be caught); the runner reaps it. Its stream goes
    /// when the server sees the connection close.
    public func stop() {
        process.signal(SIGKILL)
    }

    deinit { stop() }
}
