import Glibc
import Synchronization

/// Reads ``InputEvent`` records from a file descriptor (an evdev device, or any pipe or file
/// that carries the same records) on a thread of its own, which sleeps in `poll(2)` on the
/// descriptor and on a pipe that ending the stream writes to: no busy polling, no wake-up
/// while no key is pressed.
public enum EvdevReader {
    /// Why reading ended early.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The input ended `byteCount` bytes into a record (a short read at the end).
        case truncatedRecord(byteCount: Int)
        /// `read(2)` or `poll(2)` failed with `errno` (`ENODEV`: the device was unplugged).
        case readFailed(errno: Int32)
        /// The reading thread could not be started.
        case threadUnavailable

        /// For people.
        public var description: String {
            switch self {
            case .truncatedRecord(let count): "the input ended \(count) bytes into a 24-byte input_event record"
            case .readFailed(let code): "reading failed: \(String(cString: strerror(code)))"
            case .threadUnavailable: "the reading thread could not be started"
            }
        }
    }

    /// The records read from `descriptor`, which is made non-blocking and is closed when the
    /// stream ends: at the end of the input (a partial record at the end is
    /// ``Failure/truncatedRecord(byteCount:)``), on a read error, or when the consumer stops
    /// iterating.
    public static func events(from descriptor: Int32) -> AsyncThrowingStream<InputEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: InputEvent.self)
        guard let reader = EvdevReaderThread(descriptor: descriptor, continuation: continuation) else {
            close(descriptor)
            continuation.finish(throwing: Failure.threadUnavailable)
            return stream
        }
        continuation.onTermination = { _ in reader.cancel() }
        reader.start()
        return stream
    }

    /// Only the volume keys (presses, repeats, releases) among the records of `descriptor`;
    /// see ``events(from:)``.
    public static func volumeKeys(from descriptor: Int32) -> some AsyncSequence<VolumeKeyEvent, any Error> & Sendable {
        events(from: descriptor).compactMap { VolumeKeyEvent($0) }
    }
}

/// One reading thread: the descriptor it reads, the pipe that wakes it to stop, and the
/// stream it feeds. Sendable as it is: the descriptors are immutable numbers and the
/// continuation is Sendable.
final class EvdevReaderThread: Sendable {
    let descriptor: Int32
    /// The pipe's read end, which the thread polls.
    let wake: Int32
    /// The pipe's write end, which ``cancel()`` writes to.
    let waker: Int32
    let continuation: AsyncThrowingStream<InputEvent, any Error>.Continuation

    init?(descriptor: Int32, continuation: AsyncThrowingStream<InputEvent, any Error>.Continuation) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        self.descriptor = descriptor
        self.wake = ends[0]
        self.waker = ends[1]
        self.continuation = continuation
    }

    /// Both descriptors close with the last reference (the thread's and the stream's), so a
    /// late ``cancel()`` never writes to a number reused since.
    deinit {
        close(descriptor)
        close(wake)
        close(waker)
    }

    /// Starts the thread.
    func start() {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, evdevReaderThreadMain, retained) == 0 else {
            Unmanaged<EvdevReaderThread>.fromOpaque(retained).release()
            continuation.finish(throwing: EvdevReader.Failure.threadUnavailable)
            return
        }
        pthread_detach(thread)
    }

    /// Wakes the thread, which then ends.
    func cancel() {
        var one: UInt8 = 1
        _ = write(waker, &one, 1)
    }

    /// The thread's body: sleep until there is something to read or a stop, read what there
    /// is, hand over the whole records.
    func run() {
        var parser = InputEventParser()
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let polled = poll(&descriptors, 2, -1)
            if polled < 0 {
                if errno == EINTR { continue }
                return continuation.finish(throwing: EvdevReader.Failure.readFailed(errno: errno))
            }
            if descriptors[1].revents != 0 { return continuation.finish() }
            // Read until the descriptor has nothing more now (or ends).
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    for event in parser.feed(buffer[..<count]) { continuation.yield(event) }
                    continue
                }
                if count == 0 {
                    if parser.pendingByteCount > 0 {
                        return continuation.finish(throwing: EvdevReader.Failure.truncatedRecord(byteCount: parser.pendingByteCount))
                    }
                    return continuation.finish()
                }
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return continuation.finish(throwing: EvdevReader.Failure.readFailed(errno: errno))
            }
        }
    }
}

/// The thread entry point: takes over the retained reader and runs it.
private func evdevReaderThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let reader = Unmanaged<EvdevReaderThread>.fromOpaque(argument).takeRetainedValue()
    reader.run()
    return nil
}
