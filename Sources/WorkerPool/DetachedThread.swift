import Glibc

/// Starts a detached thread called `name` (15 bytes at most show) that runs `body` with every
/// asynchronous signal blocked, as libdispatch's threads do: `routectl daemon` receives
/// SIGTERM and SIGHUP through libdispatch's signalfd, which only sees signals no thread
/// accepts. Traps when the thread cannot be started.
package func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Never) {
    let start = ThreadStart(name: name, body: body)
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { context in
        let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
        var signals = sigset_t()
        sigfillset(&signals)
        for synchronous in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF] {
            sigdelset(&signals, synchronous)
        }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        nameThisThread(start.name)
        start.body()
    }, Unmanaged.passRetained(start).toOpaque())
    precondition(result == 0, "routectl: cannot start a thread (pthread_create: \(result))")
    pthread_detach(thread)
}

/// Names the calling thread (what `top -H`, `perf` and /proc show), through
/// /proc/thread-self/comm: Glibc's module leaves out `pthread_setname_np`.
private func nameThisThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

/// What a new thread needs, passed through `pthread_create`'s context pointer.
private final class ThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Never

    init(name: String, body: @escaping @Sendable () -> Never) {
        self.name = name
        self.body = body
    }
}
