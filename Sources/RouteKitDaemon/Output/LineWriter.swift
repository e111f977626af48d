import Glibc
import WorkerPool

/// Writes `routectl daemon`'s lines to a file descriptor (standard error) from a thread of
/// its own, so that whoever has a line to write never waits: not for a pipe that nobody
/// reads, a terminal stopped with Ctrl-S, or a full disk. Lines wait in a bounded
/// ``OutputBacklog``; what does not fit, or cannot be written, is dropped and counted, and
/// `output: N lines dropped` is written where they went missing once writing works again.
///
/// One writer for the process's life: its thread starts with the first line and never ends.
/// `@unchecked Sendable`: `backlog` and `isWriting` are only touched with `lock` held.
package final class LineWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = PoolLock()
    private var backlog: OutputBacklog
    private var isWriting = false
    private var threadStarted = false

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
        let startThread = lock.withLock {
            _ = backlog.offer(line)
            defer { threadStarted = true }
            return !threadStarted
        }
        lock.signal(.work)
        if startThread { startDetachedThread(named: "routectl-output") { [self] in run() } }
    }

    /// Lines dropped so far.
    package var droppedCount: Int { lock.withLock { backlog.droppedTotal } }

    /// Waits until every line handed over so far is written (or dropped), `timeout` at most;
    /// returns whether it was. For the last lines before the process exits.
    @discardableResult
    package func flush(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return lock.withLock {
            while !backlog.isEmpty || isWriting {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return false }
                let (seconds, attoseconds) = left.components
                lock.wait(on: .timer, nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
            }
            return true
        }
    }

    /// The thread's life: takes the next entry, writes it with the lock released, says how it went.
    private func run() -> Never {
        var entry: OutputBacklog.Entry?
        var written = true
        while true {
            let next = lock.withLock { () -> OutputBacklog.Entry in
                if let entry {
                    backlog.wrote(entry, successfully: written)
                    isWriting = false
                }
                while true {
                    if let next = backlog.take() {
                        isWriting = true
                        return next
                    }
                    lock.signal(.timer)
                    lock.wait(on: .work)
                }
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
