import Glibc
import ProcessRunner
import SoundServerSandbox

/// One process with a playback and a capture stream on a sandbox server, as a softphone in a
/// call has: `ffmpeg` recording a source and playing what it hears to a sink, both streams
/// carrying the process's pid as `application.process.id` and, through `PULSE_PROP`, the
/// client properties given (`media.role=phone`). (Two `pacat`s would be two processes, which
/// call detection rightly does not take for one application.)
///
/// Started through the package's process runner and stopped with `SIGKILL` on its own pid,
/// as ``StreamProcess`` is.
public final class SoftphoneProcess: Sendable {
    /// ffmpeg's pid, which both streams carry as `application.process.id`.
    public let processID: pid_t
    private let process: ChildProcess

    /// Starts ffmpeg against `server`, recording `source` and playing to `sink`, with
    /// `properties` as the client's (and so its streams') properties.
    public init(on server: SandboxServer, source: String, sink: String, properties: [String: String] = ["media.role": "phone"]) async throws {
        let commandLine = ["/usr/bin/ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error",
                           // Open the output at once instead of probing the input for seconds.
                           "-probesize", "32", "-analyzeduration", "0",
                           "-f", "pulse", "-i", source, "-f", "pulse", "-device", sink, "softphone"]
        var environment = server.environment
        environment["PULSE_PROP"] = properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        process = try await ChildProcess.launch(commandLine, environment: environment, output: .nullDevice)
        processID = process.pid
    }

    /// Kills ffmpeg; its streams go when the server sees the connections close.
    public func stop() {
        process.signal(SIGKILL)
    }

    deinit { stop() }
}
