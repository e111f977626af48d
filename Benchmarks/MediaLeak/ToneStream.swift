import BenchmarkSupport
import Foundation
import Glibc
import ProcessRunner
import SoundServerSandbox

/// The sound that must not reach the loudspeaker: a 440 Hz sine at −12 dBFS, s16le 48 kHz
/// stereo, played by `pacat --raw` from a file this benchmark writes once a run.
enum Tone {
    /// The tone's frequency, in hertz.
    static let frequency = 440.0
    /// The tone's level, in dBFS.
    static let level = -12.0

    /// Writes `seconds` of the tone, raw, to `path`, and, with `wav`, the same as a WAV file
    /// (for players that take files).
    static func write(seconds: Int, to path: String, wav: String? = nil) throws {
        let frames = MonitorRecorder.rate * seconds
        let amplitude = 32767 * pow(10, level / 20)
        var bytes = [UInt8]()
        bytes.reserveCapacity(frames * 4)
        for frame in 0..<frames {
            let value = Int16((amplitude * sin(2 * Double.pi * frequency * Double(frame) / Double(MonitorRecorder.rate))).rounded())
            let bits = UInt16(bitPattern: value)
            for _ in 0..<2 { bytes += [UInt8(bits & 0xff), UInt8(bits >> 8)] }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if let wav { try Data(waveHeader(dataBytes: bytes.count) + bytes).write(to: URL(fileURLWithPath: wav)) }
    }

    /// A 44-byte RIFF/WAVE header for s16le 48 kHz stereo.
    private static func waveHeader(dataBytes: Int) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xff) } }
        let rate = MonitorRecorder.rate
        return Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
            + le32(rate) + le32(rate * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(dataBytes)
    }
}

/// One `pacat --raw` playing the tone file on the default sink (it follows the default, as a
/// music player's stream does), with a buffer of `latency`. Its stream carries its pid as
/// `application.process.id`.
final class ToneStream: LeakTone {
    private let process: ChildProcess

    /// The pid, which the stream carries.
    var processID: Int32 { process.pid }

    /// Starts pacat against `server`.
    ///
    /// `name` is its `application.name`: WirePlumber's restore-stream remembers a stream's
    /// mute by application (or `media.role`) and applies it to the next stream of that name, so
    /// that a stream killed while muted would start the next round muted. Each round's stream
    /// has a name of its own, and no role.
    init(server: SandboxServer, file: String, latency: Duration, name: String) async throws {
        let commandLine = ["/usr/bin/pacat", "--playback", "--raw", "--format=s16le", "--rate=\(MonitorRecorder.rate)",
                           "--channels=2", "--latency-msec=\(Int(latency.milliseconds))",
                           "--property=application.name=\(name)", file]
        process = try await ChildProcess.launch(commandLine, environment: server.environment, output: .nullDevice)
    }

    /// Kills pacat and waits until it is reaped: its stream goes with its connection.
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.completion(within: nil)
    }
}

/// What plays the tone in a round: `pacat`, or a real player.
protocol LeakTone: Sendable {
    /// The process whose stream carries the tone.
    var processID: Int32 { get }
    /// Stops it and waits until it has gone.
    func stop() async
}
