import BenchmarkSupport
import Foundation
import SoundServerSandbox

/// `Benchmarks/Helpers/stream-player.c`: one process playing silence on many streams of
/// one connection (PulseAudio takes at most 64 connections, so one `pacat` per stream
/// cannot reach 250 streams). Built as ``CHelper`` says.
final class StreamPlayer {
    /// The most streams one sink of each server takes: PulseAudio 16 refuses a 257th sink
    /// input (`PA_MAX_INPUTS_PER_SINK` is 256 in pulsecore/sink.h); PipeWire 0.3.65 links at
    /// most 128 streams to a node's input port (`MAX_PORTS` is 128 in spa's mixer-dsp.c),
    /// and leaves room for the links being torn down while others are made.
    static func largestCount(on kind: SoundServerKind) -> Int {
        switch kind {
        case .pulseaudio: 250
        case .pipewire: 120
        }
    }

    /// The stream counts a run measures unless told otherwise: 1, 50, and on PulseAudio the
    /// most a sink takes. On PipeWire, 120 streams (its most) make WirePlumber 0.4 take
    /// seconds to tens of seconds for every change of default on a 2-core machine, for every
    /// switcher alike, so that count runs only when asked for (`--streams 120`).
    static func defaultCounts(on kind: SoundServerKind) -> [Int] {
        switch kind {
        case .pulseaudio: [1, 50, largestCount(on: kind)]
        case .pipewire: [1, 50]
        }
    }

    /// The player's binary (see ``CHelper``).
    static func build(in directory: String) async throws -> String {
        try await CHelper.binary("stream-player", in: directory)
    }

    private let process: LineEmittingProcess

    /// Starts `count` streams on `sink`, in the sample format the server's null sinks use
    /// (so nothing is converted); the bench receives the player's lines.
    init(binary: String, bench: Bench, sink: String, count: Int) async throws {
        let format = bench.kind == .pulseaudio ? ["44100", "s16le"] : ["48000", "float32le"]
        let signals = bench.signals
        process = try await LineEmittingProcess(executable: binary, arguments: [sink, String(count)] + format,
                                          environment: bench.server.environment) { _, line in
            signals.push(.player(line))
        }
    }

    /// Ends the player and its streams, and waits for it.
    func stop() async {
        await process.stop()
    }
}
