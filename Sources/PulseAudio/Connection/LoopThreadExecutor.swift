import CPulseAudio
import ConcurrencySupport
import Glibc

/// A task executor that runs jobs on libpulse's event thread, between libpulse's callbacks.
///
/// A task that prefers it (`withTaskExecutorPreference(client.loopExecutor)`) talks to the
/// server with no thread hop: an event's callback resumes the task on the same thread, the
/// task's request goes out from that thread, and the answer's callback resumes it there again.
/// This is how RouteKit's engine switches within one round trip of an event. Jobs run with
/// the loop lock held, as callbacks do, so they must never block.
///
/// Jobs are queued under a lock and the thread is woken through an `eventfd` that libpulse's
/// main loop polls; queueing never takes the loop lock, so no lock order can deadlock. Once
/// the loop has stopped, jobs go to the global concurrent executor: nothing is ever dropped.
///
/// `@unchecked Sendable`: `ioEvent` is written once before the loop starts and read again
/// only in ``loopStopped(api:)``, after the loop's thread has ended; `wakeDescriptor` never
/// changes; everything else is in a `LockedValue`.
///
/// Internal: clients see it only as ``PulseClient/loopExecutor``, `any TaskExecutor`.
final class LoopThreadExecutor: TaskExecutor, @unchecked Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// A wake is written and not yet read: later jobs need no other.
        var isWakePending = false
        var isStopped = false
    }

    private let queue = LockedValue(Queue())
    private let wakeDescriptor: Int32
    private var ioEvent: OpaquePointer?

    /// Registers the wake descriptor with `api`, before the loop's thread starts.
    init(api: UnsafeMutablePointer<pa_mainloop_api>) {
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(descriptor >= 0, "eventfd failed: errno \(errno)")
        wakeDescriptor = descriptor
        ioEvent = api.pointee.io_new(api, descriptor, PA_IO_EVENT_INPUT, loopExecutorWakeCallback,
                                     Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        close(wakeDescriptor)
    }

    /// Queues `job` for the loop's thread, or for the global executor once the loop is gone.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        enum Next { case nothing, wake, elsewhere }
        let next = queue.withLock { queue -> Next in
            guard !queue.isStopped else { return .elsewhere }
            queue.jobs.append(job)
            guard !queue.isWakePending else { return .nothing }
            queue.isWakePending = true
            return .wake
        }
        switch next {
        case .nothing: break
        case .wake: _ = eventfd_write(wakeDescriptor, 1)
        case .elsewhere: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// The wake was read (loop thread, lock held): runs what is queued. Jobs queued while
    /// these run wake the loop again and run on its next turn, after the callbacks due.
    func runQueuedJobs() {
        var value: eventfd_t = 0
        _ = eventfd_read(wakeDescriptor, &value)
        let jobs = queue.withLock { queue -> [UnownedJob] in
            queue.isWakePending = false
            defer { queue.jobs.removeAll(keepingCapacity: true) }
            return queue.jobs
        }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }

    /// The loop's thread has ended: unregisters the wake and hands whatever is still queued,
    /// and everything queued from now on, to the global executor. Idempotent.
    func loopStopped(api: UnsafeMutablePointer<pa_mainloop_api>) {
        if let ioEvent {
            api.pointee.io_free(ioEvent)
            self.ioEvent = nil
        }
        let leftovers = queue.withLock { queue -> [UnownedJob] in
            queue.isStopped = true
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in leftovers { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
