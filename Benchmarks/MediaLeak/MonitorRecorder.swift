import BenchmarkSupport
import Foundation
import Glibc
import ProcessRunner
import SoundServerSandbox
import Synchronization
import SystemPackage

/// `parec --raw` on a sink's monitor for a whole server's run, read here from a pipe on a
/// thread of its own: every 1 ms window of the recording (48 frames at 48 kHz, s16le stereo)
/// is reduced to its peak, and every read is time-stamped with the position it reached.
///
/// Positions count frames from the recording's start. The monitor is continuous (the sink
/// renders silence when nothing plays), so a position stands for a moment of the sink's clock.
final class MonitorRecorder: Sendable {
    /// Frames a second; the monitor is recorded at this rate.
    static let rate = 48_000
    /// Frames in one window (1 ms).
    static let windowFrames = rate / 1000
    /// The peak, as a sample value, above which a window counts as sound: −60 dBFS.
    static let threshold = Int(32768 * 0.001)

    private struct State {
        /// Frames read so far.
        var frames = 0
        /// The peak of each complete window, in order.
        var peaks: [Int16] = []
        /// The peak of the window being filled.
        var partialPeak: Int16 = 0
        /// The latest loud window, if any.
        var lastLoud: Int?
        /// Each read: when it returned and the frame count it reached.
        var reads: [(ContinuousClock.Instant, Int)] = []
        /// Whether the output ended (parec exited).
        var ended = false
        /// Who waits for a frame count.
        var waiters: [(frames: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let state = Mutex(State())
    private let process: ChildProcess

    /// Starts `parec` on `monitor` of `server`, asking for `latency` (its fragment size),
    /// and returns once its first samples have arrived (libpulse takes up to 2 s to start
    /// a client here), or throws after 10 s.
    init(server: SandboxServer, monitor: String, latency: Duration, log: String) async throws {
        let pipe = try FileDescriptor.pipe()
        let commandLine = ["/usr/bin/parec", "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=2",
                           "--device=\(monitor)", "--latency-msec=\(Int(latency.milliseconds))",
                           "--property=application.name=media-leak-recorder"]
        do {
            process = try await ChildProcess.launch(commandLine, environment: server.environment, input: .nullDevice,
                                                    output: .descriptor(pipe.writeEnd),
                                                    error: .separately(.appendingToFile(log)))
        } catch {
            try? pipe.readEnd.close()
            throw error
        }
        let readEnd = pipe.readEnd
        Thread.detachNewThread { [self] in self.read(from: readEnd) }
        guard await waitUntil(frames: 1, within: .seconds(10)) else {
            await stop()
            throw LeakError("parec on \(monitor) delivered nothing in 10 s (log: \(log))")
        }
    }

    /// Reads the pipe until its end: the recorder's own thread.
    private func read(from descriptor: FileDescriptor) {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 4)
        defer {
            buffer.deallocate()
            try? descriptor.close()
        }
        var carry: [UInt8] = []
        while true {
            let count: Int
            do { count = try descriptor.read(into: buffer) } catch { break }
            guard count > 0 else { break }
            let now = ContinuousClock.now
            var bytes = carry
            bytes.append(contentsOf: buffer[0..<count])
            let frameBytes = 4
            let usable = bytes.count / frameBytes * frameBytes
            carry = Array(bytes[usable...])
            absorb(bytes[0..<usable], at: now)
        }
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: false) }
    }

    /// Adds whole frames (s16le stereo) to the windows and wakes who waited for them.
    private func absorb(_ bytes: ArraySlice<UInt8>, at now: ContinuousClock.Instant) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            var index = bytes.startIndex
            while index < bytes.endIndex {
                for channel in 0..<2 {
                    let offset = index + channel * 2
                    let sample = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
                    let magnitude = sample == .min ? Int16.max : abs(sample)
                    if magnitude > state.partialPeak { state.partialPeak = magnitude }
                }
                state.frames += 1
                if state.frames % Self.windowFrames == 0 {
                    if Int(state.partialPeak) > Self.threshold { state.lastLoud = state.peaks.count }
                    state.peaks.append(state.partialPeak)
                    state.partialPeak = 0
                }
                index += 4
            }
            state.reads.append((now, state.frames))
            let frames = state.frames
            let (due, waiting) = state.waiters.reduce(into: ([CheckedContinuation<Bool, Never>](), [(frames: Int, continuation: CheckedContinuation<Bool, Never>)]())) {
                if $1.frames <= frames { $0.0.append($1.continuation) } else { $0.1.append($1) }
            }
            state.waiters = waiting
            return due
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Frames read so far.
    var frames: Int { state.withLock { $0.frames } }

    /// Complete windows so far.
    var windowCount: Int { state.withLock { $0.peaks.count } }

    /// The latest loud window, if any.
    var lastLoudWindow: Int? { state.withLock { $0.lastLoud } }

    /// The frame count reached by the last read that returned at or before `instant`.
    func frames(readBy instant: ContinuousClock.Instant) -> Int {
        state.withLock { state in
            var low = 0
            var high = state.reads.count
            while low < high {
                let middle = (low + high) / 2
                if state.reads[middle].0 <= instant { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? 0 : state.reads[low - 1].1
        }
    }

    /// When the read that first reached `frames` returned.
    func arrival(ofFrame frames: Int) -> ContinuousClock.Instant? {
        state.withLock { state in state.reads.first { $0.1 > frames }?.0 }
    }

    /// The loud windows among `windows` (clamped to what was recorded), in order.
    func loudWindows(_ windows: Range<Int>) -> [Int] {
        state.withLock { state in
            let range = windows.clamped(to: 0..<state.peaks.count)
            return range.filter { Int(state.peaks[$0]) > Self.threshold }
        }
    }

    /// The highest peak among `windows`, in dBFS (−∞ for digital silence).
    func peakDecibels(_ windows: Range<Int>) -> Double {
        let peak = state.withLock { state in
            state.peaks[windows.clamped(to: 0..<state.peaks.count)].max() ?? 0
        }
        return 20 * log10(Double(peak) / 32768)
    }

    /// Waits until `frames` frames have been read; false if the recording ended or `limit`
    /// passed first.
    func waitUntil(frames: Int, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.reach(frames) }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { self.abandon(frames) }
            return first
        }
    }

    private func reach(_ frames: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if state.frames >= frames { return true }
                if state.ended { return false }
                state.waiters.append((frames, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Wakes (with false) whoever waits for `frames` after a time limit.
    private func abandon(_ frames: Int) {
        let dropped = state.withLock { state in
            let dropped = state.waiters.filter { $0.frames == frames }
            state.waiters.removeAll { $0.frames == frames }
            return dropped
        }
        for waiter in dropped { waiter.continuation.resume(returning: false) }
    }

    /// Ends parec and waits until it is reaped; the reading thread ends with the pipe.
    func stop() async {
        process.signal(SIGTERM)
        if await process.completion(within: .seconds(1)) != nil { return }
        process.signal(SIGKILL)
        _ = await process.completion(within: nil)
    }
}

/// Why the benchmark could not go on.
struct LeakError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
