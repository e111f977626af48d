import Glibc
import WorkerPool

/// Writes `routectl daemon`'s lines to a file descriptor (standard error) from a thread of
/// its own, so that whoever has a line to write never waits: not for a pipe that nobody
/// reads, a terminal stopped with Ctrl-S, or a full disk. Lines wait in a bounded
/// ``OutputBacklog``; what does not fit, or cannot be written, is dropped and counted, and
/// `output: N lines dropped` is written where they went missing once writing works again.
///
/// One writer for the process's life: its thread starts with the first line and never ends.
/// `@unchecked Sendable`: `backlog` and the flags and counts below are only touched with
/// `lock` held; the thread and the flushers wait on its semaphores without it.
package final class LineWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = PoolLock()
    private var backlog: OutputBacklog
    private var isWriting = false
    private var threadStarted = false
    /// The thread waits for a line and no wake was sent to it since.
    private var threadAsleep = false
    /// Threads in ``flush(timeout:)`` waiting for the backlog to empty.
    private var flushers = 0

    /// The daemon's standard error, with 256 KiB of lines waiting at most.
    package static let standardError = LineWriter(descriptor: STDERR_FILENO, capacity: 256 * 1024)

    /// A writer to `descriptor` keeping at most `capacity` bytes of lines waiting.
    package init(descriptor: Int32, capacity: Int) {
        self.descriptor = descriptor
        backlog = OutputBacklog(capacity: capacity)
    }

    /// Hands `line` (without its newline) to the writer's thread, or drops and counts it when
    /// the backlog is full. Never waits for the writing.
    package func write(_ line: String) {
        let (startThread, wake) = lock.withLock { () -> (Bool, Bool) in
            _ = backlog.offer(line)
            defer {
                threadStarted = true
                threadAsleep = false
            }
            return (!threadStarted, threadAsleep)
        }
        if wake { lock.signal(.work) }
        if startThread { startDetachedThread(named: "routectl-output") { [self] in run() } }
    }

    /// Lines dropped so far.
    package var droppedCount: Int { lock.withLock { backlog.droppedTotal } }

    /// Waits until every line handed over so far is written (or dropped), `timeout` at most;
    /// returns whether it was. For the last lines before the process exits.
    @discardableResult
    package func flush(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let done = lock.withLock { () -> Bool in
                guard backlog.isEmpty, !isWriting else {
                    flushers += 1
                    return false
                }
                return true
            }
            if done { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            if left > .zero {
                let (seconds, attoseconds) = left.components
                lock.wait(on: .timer, nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
            }
            lock.withLock { flushers -= 1 }
            guard left > .zero else { return false }
        }
    }

    /// The thread's life: takes the next entry, writes it with the lock released, says how it
    /// went; with nothing left, wakes the flushers and sleeps until a line comes.
    private func run() -> Never {
        var entry: OutputBacklog.Entry?
        var written = true
        while true {
            let next = lock.withLock { () -> OutputBacklog.Entry? in
                if let done = entry {
                    backlog.wrote(done, successfully: written)
                    isWriting = false
                    entry = nil
                }
                if let next = backlog.take() {
                    isWriting = true
                    return next
                }
                for _ in 0..<flushers { lock.signal(.timer) }
                threadAsleep = true
                return nil
            }
            guard let next else {
                lock.wait(on: .work)
                continue
            }
            entry = next
            written = writeAll(next.text, to: descriptor)
        }
    }
}

/// Writes all of `text` to `descriptor` at once (no stdio buffer), retrying after signals;
/// false when the descriptor refuses it (closed, or a pipe whose reader has gone: EPIPE, as
/// SIGPIPE is ignored).
package func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { buffer in
        guard let start = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let count = write(descriptor, start + offset, buffer.count - offset)
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
