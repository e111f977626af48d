import Foundation
import PulseAudio
import ProcessRunner
import SoundServerSandbox

/// How far ahead of the clock each server renders the loudspeaker: what a stream already
/// mixed into it plays before any mute can reach it. Read while the tone plays on the
/// loudspeaker itself.
enum RenderPeriod {
    /// Lines describing the render period of `rig`'s server.
    static func describe(_ rig: LeakRig) async throws -> [String] {
        try await rig.driver.setDefaultSink(LeakRig.speaker)
        let tone = try await ToneStream(server: rig.server, file: rig.toneFile, latency: rig.options.streamLatency,
                                        name: "media-leak-tone-\(rig.server.kind)-calibration")
        var lines: [String] = []
        do {
            try await rig.settle("the tone playing on the loudspeaker") {
                try await rig.stream(of: tone.processID).map { !$0.isCorked } ?? false
            }
            let now = rig.recorder.frames
            _ = await rig.recorder.waitUntil(frames: now + 300 * MonitorRecorder.windowFrames, within: .seconds(5))
            lines.append("the loudspeaker (pactl list sinks, the tone playing on it): "
                         + (try await sinkLatency(rig) ?? "no latency line"))
            if rig.server.kind == .pipewire { lines += try await pipeWireClock(rig) }
        } catch {
            await tone.stop()
            throw error
        }
        await tone.stop()
        try await rig.awaitSilence()
        return lines
    }

    /// The loudspeaker's "Latency: X usec, configured Y usec" from `pactl list sinks`.
    private static func sinkLatency(_ rig: LeakRig) async throws -> String? {
        let listing = try await rig.server.pactl("list", "sinks")
        var inSpeaker = false
        for line in listing.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Name:") { inSpeaker = trimmed == "Name: \(LeakRig.speaker)" }
            if inSpeaker, trimmed.hasPrefix("Latency:") { return trimmed }
        }
        return nil
    }

    /// PipeWire's graph clock: the `settings` metadata (rate, quantum and its bounds).
    private static func pipeWireClock(_ rig: LeakRig) async throws -> [String] {
        var environment = rig.server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let metadata = try await ChildProcess.run(["/usr/bin/pw-metadata", "-n", "settings", "0"],
                                                  environment: environment, timeLimit: .seconds(5))
        let settings = metadata.standardOutput.split(separator: "\n").compactMap { line -> String? in
            guard let key = line.firstMatch(of: /key:'([^']+)'/)?.1, let value = line.firstMatch(of: /value:'([^']+)'/)?.1 else {
                return nil
            }
            return "\(key)=\(value)"
        }
        // (pw-top 0.3.65 has no batch mode, so the quantum in use is not read here.)
        let lines = ["PipeWire settings: " + (settings.isEmpty ? "none read" : settings.joined(separator: " "))]
        return lines
    }
}
