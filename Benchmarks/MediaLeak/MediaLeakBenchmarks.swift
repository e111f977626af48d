import BenchmarkSupport
import Foundation
import PulseAudio
import SoundServerSandbox

/// What the command line asks for.
struct LeakOptions {
    /// The servers, in order (both by default).
    var kinds: [SoundServerKind] = []
    /// Rounds for each switcher on each server.
    var rounds = 12
    /// How long after the unplug the loudspeaker is listened to.
    var window = Duration.milliseconds(1500)
    /// The tone stream's buffer (pacat `--latency-msec`).
    var streamLatency = Duration.milliseconds(100)
    /// The recorder's fragment (parec `--latency-msec`).
    var recordLatency = Duration.milliseconds(5)
    /// How long the tone plays on the headset before the unplug.
    var settle = Duration.milliseconds(300)
}

/// Sound on the loudspeaker after a headset is unplugged mid-stream, in milliseconds: a
/// stream plays a 440 Hz tone at −12 dBFS on a Bluetooth headset's null sink, the loudspeaker
/// sink's monitor is recorded for the whole run, the headset's module is unloaded, and the
/// 1 ms windows of the loudspeaker whose peak is above −60 dBFS are counted over the window
/// after the unplug. Switchers take turns round by round on the same server: nothing (the
/// server alone) and RouteKit's `MediaGuard` in this process (Docs/Benchmarks.md).
///
/// Usage: media-leak-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--window-ms N]
///        [--stream-latency-ms N] [--record-latency-ms N]
@main
enum MediaLeakBenchmarks {
    static func main() async throws {
        guard let options = parse(CommandLine.arguments.dropFirst()) else {
            report("usage: media-leak-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--window-ms N] "
                   + "[--stream-latency-ms N] [--record-latency-ms N]")
            exit(64)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("media-leak-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let toneFile = directory + "/tone.raw"
        let waveFile = directory + "/tone.wav"
        try Tone.write(seconds: 20, to: toneFile, wav: waveFile)

        let started = ContinuousClock.now
        report("tone \(Tone.frequency) Hz at \(Tone.level) dBFS, s16le \(MonitorRecorder.rate) Hz stereo (pacat --latency-msec="
               + "\(Int(options.streamLatency.milliseconds))); loudspeaker monitor recorded by parec --latency-msec="
               + "\(Int(options.recordLatency.milliseconds)); a window counts when its peak is above −60 dBFS; "
               + "\(options.rounds) rounds each, window \(Int(options.window.milliseconds)) ms after the unplug")
        var summary: [String] = []
        for kind in options.kinds {
            try await SandboxServer.withServer(kind) { server in
                let rig = try await LeakRig(server: server, options: options, toneFile: toneFile, waveFile: waveFile,
                                        directory: directory)
                do {
                    summary += try await benchmark(rig)
                } catch {
                    await rig.shutdown()
                    throw error
                }
                await rig.shutdown()
            }
        }
        report("")
        report("## Summary: leaked ms on the loudspeaker in the \(Int(options.window.milliseconds)) ms after the unplug")
        report("| server | switcher | rounds | p50 | p95 | max | ÷ baseline (p50) |")
        report("|---|---|---|---|---|---|---|")
        for line in summary { report(line) }
        report("")
        report("whole run: \(format((ContinuousClock.now - started).milliseconds / 1000)) s")
    }

    /// Reads the command line; nil when it cannot be read.
    static func parse(_ arguments: ArraySlice<String>) -> LeakOptions? {
        var options = LeakOptions()
        var arguments = arguments
        func milliseconds() -> Duration? {
            arguments.popFirst().flatMap(Int.init).flatMap { $0 > 0 ? Duration.milliseconds($0) : nil }
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--rounds":
                guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { return nil }
                options.rounds = value
            case "--window-ms":
                guard let value = milliseconds() else { return nil }
                options.window = value
            case "--stream-latency-ms":
                guard let value = milliseconds() else { return nil }
                options.streamLatency = value
            case "--record-latency-ms":
                guard let value = milliseconds() else { return nil }
                options.recordLatency = value
            default:
                guard let kind = SoundServerKind(rawValue: argument) else { return nil }
                options.kinds.append(kind)
            }
        }
        if options.kinds.isEmpty { options.kinds = SoundServerKind.allCases }
        return options
    }

    /// Every switcher on one server, round by round in turn; returns its summary rows.
    static func benchmark(_ rig: LeakRig) async throws -> [String] {
        let info = try await rig.observer.serverInfo()
        report("## \(rig.server.kind): \(info.serverName) \(info.serverVersion)")
        for line in try await RenderPeriod.describe(rig) { report(line) }

        let switchers: [any LeakSwitcher] = [NoSwitcher(), GuardSwitcher(), GuardSwitcher(mirrored: true),
                                               GuardSwitcher(mpvPlaying: rig.waveFile),
                                               GuardSwitcher(mpvPlaying: rig.waveFile, mirrored: true)]
        var rounds: [String: [LeakRound]] = [:]
        // One warm-up round each (not counted), then the rounds interleaved: each switcher is
        // started for its round and stopped after it, so that none runs during another's.
        for pass in 0...rig.options.rounds {
            for switcher in switchers {
                let round = try await switcher.running(rig) { try await rig.round(switcher) }
                // Progress on standard error: a run takes minutes.
                FileHandle.standardError.write(Data("\(rig.server.kind) round \(pass) \(switcher.name): \(round.leaked) ms\n".utf8))
                if pass > 0 { rounds[switcher.name, default: []].append(round) }
            }
        }

        if rig.repins > 0 { report("the recording was moved back to the speaker's monitor before \(rig.repins) rounds (the server had moved it with the default)") }
        let baseline = rounds[switchers[0].name].map { LeakSummary($0) }
        var rows: [String] = []
        for switcher in switchers {
            let summary = LeakSummary(rounds[switcher.name] ?? [])
            for line in summary.details { report("\(switcher.name): \(line)") }
            let ratio = baseline.map { $0.leaked.p50 > 0 ? format(summary.leaked.p50 / $0.leaked.p50) + "×" : "-" } ?? "-"
            rows.append("| \(rig.server.kind) | \(switcher.name) | \(summary.count) | \(format(summary.leaked.p50)) ms | "
                        + "\(format(summary.leaked.p95)) ms | \(format(summary.leaked.max)) ms | \(ratio) |")
        }
        report("")
        return rows
    }
}
