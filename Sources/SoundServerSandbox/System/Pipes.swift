import Glibc

/// Pipes that carry a child's output back, and reading them to their end.
enum Pipes {
    /// A new pipe whose two ends are closed on `exec`, so that no other child inherits them.
    static func make() throws(SandboxError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        // `pipe2` sets close-on-exec atomically; Swift's Glibc module omits it, so look it up.
        if let symbol = dlsym(nil, "pipe2") {
            let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
            guard pipe2(&descriptors, O_CLOEXEC) == 0 else { throw failure() }
        } else {
            guard pipe(&descriptors) == 0 else { throw failure() }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }

    /// What two pipes delivered.
    struct Drained {
        /// Everything read from the first pipe.
        var first: [UInt8] = []
        /// Everything read from the second pipe.
        var second: [UInt8] = []
        /// Whether `deadline` passed before both pipes ended.
        var timedOut = false
    }

    /// Reads both pipes until both end, blocking the calling thread, then closes them. If
    /// `deadline` passes first, calls `expire` (which should kill the writer) and keeps reading
    /// for at most two more seconds.
    static func drain(
        _ first: Int32,
        _ second: Int32,
        deadline: ContinuousClock.Instant,
        expire: () -> Void
    ) -> Drained {
        var drained = Drained()
        var polled = [pollfd(fd: first, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var limit = deadline
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while polled.contains(where: { $0.fd >= 0 }) {
            let remaining = limit - ContinuousClock.now
            if remaining <= .zero {
                if drained.timedOut { break }
                drained.timedOut = true
                expire()
                limit = ContinuousClock.now + .seconds(2)
                continue
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            let ready = poll(&polled, nfds_t(polled.count), milliseconds)
            if ready < 0 && errno != EINTR { break }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 {
                        drained.first.append(contentsOf: buffer[..<count])
                    } else {
                        drained.second.append(contentsOf: buffer[..<count])
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(polled[index].fd)
                    polled[index].fd = -1
                }
            }
        }
        for entry in polled where entry.fd >= 0 { close(entry.fd) }
        return drained
    }

    private static func failure() -> SandboxError {
        SandboxError("could not create a pipe: \(String(cString: strerror(errno)))")
    }
}
