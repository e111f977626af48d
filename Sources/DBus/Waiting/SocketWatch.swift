import CSystemdBus
import ConcurrencySupport
import Glibc

/// Waits, without polling, for a bus's socket file to appear: after the session bus went away,
/// the daemon sleeps until `dbus-daemon` creates its socket again, with no timer at all.
///
/// It watches the socket's folder with inotify from a thread of its own, which sleeps in
/// `poll(2)` on the inotify descriptor and an eventfd that cancellation writes to.
public enum SocketWatch {
    /// What a wait found.
    public enum Outcome: Hashable, Sendable {
        /// The file was there already: if connecting fails, it is not a bus coming back.
        case alreadyPresent
        /// The file appeared while waiting.
        case appeared
        /// The path cannot be watched (its folder is missing, or inotify refuses): try now and then.
        case cannotWatch
    }

    /// Returns once a file exists at `path`, saying whether it had to wait for it. Throws
    /// `CancellationError` when the task is cancelled first.
    public static func waitUntilPresent(_ path: String) async throws -> Outcome {
        // Looked at before the watch is made (a file already there needs no inotify instance,
        // of which a user has 128 in all), and again after (it may have come in between).
        if access(path, F_OK) == 0 { return .alreadyPresent }
        guard let watch = SocketWatchThread(path: path) else { return .cannotWatch }
        if access(path, F_OK) == 0 { return .alreadyPresent }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                watch.start(continuation)
            }
        } onCancel: {
            // Only writes to an eventfd: never blocks, never takes a lock the watcher holds.
            watch.cancel()
        }
    }
}

/// One wait: the inotify and eventfd descriptors, and the continuation the thread resumes
/// (behind its mutex).
final class SocketWatchThread: Sendable {
    let path: String
    let inotify: Int32
    let wake: Int32
    private let continuation = LockedValue<CheckedContinuation<SocketWatch.Outcome, any Error>?>(nil)

    init?(path: String) {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(inotify, folder, mask) >= 0 else {
            close(inotify)
            return nil
        }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            close(inotify)
            return nil
        }
        self.path = path
        self.inotify = inotify
        self.wake = wake
    }

    deinit {
        close(inotify)
        close(wake)
    }

    /// Starts the thread, which resumes `continuation` once.
    func start(_ continuation: CheckedContinuation<SocketWatch.Outcome, any Error>) {
        self.continuation.withLock { $0 = continuation }
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, socketWatchThreadMain, retained) == 0 else {
            Unmanaged<SocketWatchThread>.fromOpaque(retained).release()
            finish(.success(.cannotWatch))
            return
        }
        pthread_detach(thread)
    }

    /// Wakes the thread, which then ends the wait with `CancellationError`.
    func cancel() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// The thread's body: look, sleep until the folder changes or cancellation, look again.
    func run() {
        while true {
            if access(path, F_OK) == 0 { return finish(.success(.appeared)) }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let polled = poll(&descriptors, 2, -1)
            if polled < 0 && errno != EINTR { return finish(.success(.cannotWatch)) }
            if descriptors[1].revents != 0 { return finish(.failure(CancellationError())) }
            // Drain the events; which file it was does not matter, the path is looked at again.
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while read(inotify, &buffer, buffer.count) > 0 {}
        }
    }

    private func finish(_ result: Result<SocketWatch.Outcome, any Error>) {
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(with: result)
    }
}
