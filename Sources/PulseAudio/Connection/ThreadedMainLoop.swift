import CPulseAudio

/// libpulse's threaded main loop: one thread that runs every libpulse callback, and one
/// recursive lock that every other thread takes before it touches libpulse.
///
/// `@unchecked Sendable`: the pointer never changes after `init`, and libpulse's threaded
/// main loop is built to be driven from any thread as long as its lock is held, which
/// ``withLock(_:)`` guarantees.
final class ThreadedMainLoop: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The vtable a context is created with.
    let api: UnsafeMutablePointer<pa_mainloop_api>
    /// Runs Swift tasks on this loop's thread.
    let executor: LoopThreadExecutor

    init(name: String) {
        guard let pointer = pa_threaded_mainloop_new() else {
            fatalError("pa_threaded_mainloop_new failed: out of memory")
        }
        self.pointer = pointer
        self.api = pa_threaded_mainloop_get_api(pointer)
        pa_threaded_mainloop_set_name(pointer, name)
        self.executor = LoopThreadExecutor(api: api)
        guard pa_threaded_mainloop_start(pointer) == 0 else {
            fatalError("pa_threaded_mainloop_start failed: the event thread could not be created")
        }
    }

    /// Whether the caller runs on the loop's own thread, that is inside a libpulse callback.
    var isLoopThread: Bool { pa_threaded_mainloop_in_thread(pointer) != 0 }

    /// Runs `body` with the loop's lock held. Inside a libpulse callback the lock is held
    /// already, and `body` just runs. Never `await` inside: the lock is a thread's, not a task's.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isLoopThread { return try body() }
        pa_threaded_mainloop_lock(pointer)
        defer { pa_threaded_mainloop_unlock(pointer) }
        return try body()
    }

    /// Stops the loop's thread and waits for it; from then on the executor's jobs run on the
    /// global executor. Must not be called from the loop's thread.
    func stop() {
        precondition(!isLoopThread, "the libpulse loop cannot stop itself from a callback")
        pa_threaded_mainloop_stop(pointer)
        executor.loopStopped(api: api)
    }

    deinit {
        pa_threaded_mainloop_stop(pointer)
        executor.loopStopped(api: api)
        pa_threaded_mainloop_free(pointer)
    }
}
