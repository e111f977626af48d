import Glibc
import ProcessRunner
import SoundServerSandbox
import TestSupport

/// mpv with mpv-mpris playing the tone (a WAV file, looped) on a private session bus: the
/// real player, which RouteKit pauses through MPRIS.
final class MpvTone: LeakTone {
    private let process: ChildProcess

    var processID: Int32 { process.pid }

    /// Starts mpv against `server` on `bus`; `name` is its stream's application name (see
    /// ``ToneStream``: WirePlumber remembers mutes by application).
    init(server: SandboxServer, bus: PrivateSessionBus, file: String, name: String) async throws {
        let command = ["/usr/bin/mpv", "--no-video", "--no-terminal", "--ao=pulse", "--loop-file=inf",
                       "--audio-client-name=\(name)", file]
        // The benchmark's bus wins: a PipeWire sandbox has a session bus of its own.
        process = try await ChildProcess.launch(command, environment: server.environment.merging(bus.environment) { $1 },
                                                output: .nullDevice)
    }

    /// Kills mpv and waits until it is reaped.
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.completion(within: nil)
    }
}
