import Glibc
import ProcessRunner
import SoundServerSandbox

/// Sound for a virtual microphone, in real time, as a real microphone gives: `pacat --record`
/// from a monitor of the sandbox's server, writing into the FIFO that a microphone of
/// ``SandboxServer/plugDevice(_:properties:microphone:)`` reads.
///
/// Without it such a microphone delivers nothing on PulseAudio, whose `module-pipe-source`
/// posts only what it reads: a client that records from it then blocks, and baresip (whose
/// ALSA thread must return from its read before a call can end) can no longer hang up. Its
/// own stream records from a monitor, which no router takes for a microphone.
///
/// The FIFO is where ``SandboxServer/loadMicrophone(name:properties:)`` puts it: `<name>.fifo`
/// in the sandbox's folder.
///
/// It ends by itself when its microphone is unplugged (the FIFO loses its reader), else with
/// `SIGKILL` on its own pid from ``stop()`` or `deinit`.
final class MicrophoneFeed: Sendable {
    /// The pacat process's pid.
    let processID: pid_t
    private let process: ChildProcess

    /// Starts feeding `microphone` (a source name) on `server` with what `monitor` (a monitor
    /// source's name) records.
    init(on server: SandboxServer, microphone: String, from monitor: String) async throws {
        process = try await ChildProcess.launch(
            ["/usr/bin/pacat", "--record", "--raw", "--device=\(monitor)", "--format=s16le", "--rate=44100", "--channels=2",
             "--latency-msec=20", "--client-name=microphone-feed", server.directory + "/" + microphone + ".fifo"],
            environment: server.environment, output: .nullDevice)
        processID = process.pid
    }

    /// Kills pacat (`SIGKILL`: it cannot be caught); the runner reaps it.
    func stop() {
        process.signal(SIGKILL)
    }

    deinit { stop() }
}
