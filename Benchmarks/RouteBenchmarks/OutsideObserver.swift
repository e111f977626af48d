import BenchmarkSupport
import Foundation
import SoundServerSandbox

/// One line of `Benchmarks/Helpers/default-observer.c`, each instant on that process's own
/// monotonic clock (so only differences between its instants mean anything).
enum ObserverLine: Sendable {
    /// Subscribed, and the first default read.
    case ready
    /// A sink's `new` event arrived.
    case new(index: UInt32, at: Duration)
    /// A sink's `remove` event arrived.
    case remove(index: UInt32, at: Duration)
    /// The server's answer named `name` as the new default sink.
    case defaultSink(name: String, at: Duration)
    /// The first listing with every expected stream on the newest sink, `index`.
    case streams(index: UInt32, at: Duration)
    /// Anything else (an error).
    case other(String)

    /// The line parsed.
    init(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        let instant = words.last.flatMap(Int64.init).map { Duration.nanoseconds($0) }
        let index = words.count == 3 ? UInt32(words[1]) : nil
        switch (words.first, index, instant) {
        case ("ready", _, _) where words.count == 1: self = .ready
        case ("new", let index?, let instant?): self = .new(index: index, at: instant)
        case ("remove", let index?, let instant?): self = .remove(index: index, at: instant)
        case ("streams", let index?, let instant?): self = .streams(index: index, at: instant)
        case ("default", _, let instant?) where words.count == 3: self = .defaultSink(name: words[1], at: instant)
        default: self = .other(line)
        }
    }
}

/// The outside observer: `default-observer`, a libpulse client in a process of its own beside
/// every switcher (the floor client, the daemon, and the manager inside this benchmark), so
/// that none of them is timed by a connection it shares. Its sightings arrive as
/// ``Signal/outside(_:)``.
final class OutsideObserver {
    private let process: LineEmittingProcess

    /// Starts the observer at `binary`, expecting `streams` playing streams (0: none), and
    /// returns once it is subscribed and has read the default.
    init(binary: String, bench: Bench, streams: Int) async throws {
        let signals = bench.signals
        process = try await LineEmittingProcess(executable: binary, arguments: [String(streams)],
                                                environment: bench.server.environment) { _, line in
            signals.push(.outside(ObserverLine(line)))
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while let signal = await signals.next(before: deadline) {
            bench.note(signal)
            guard case .outside(let line) = signal else { continue }
            if case .ready = line { return }
            if case .other(let text) = line { throw BenchError("the outside observer: \(text)") }
        }
        throw BenchError("the outside observer did not say it is ready within 10 s")
    }

    /// Ends the observer and waits for it.
    func stop() async {
        await process.stop()
    }
}
