import Dispatch

/// Where the runner's own tasks run: a serial dispatch queue of its own, off Swift's
/// cooperative pool.
///
/// Every step of running a child (the spawn's answer, each read of its output, its exit, its
/// reaping) is a job. On the cooperative pool (as many threads as cores) those jobs queue
/// behind whatever else the process is doing, so a busy test run or benchmark would see
/// `pactl` take as long as the pool's queue; the queue here gets a thread of its own from
/// the kernel's scheduler, as the supervising threads of the past did, while the jobs stay
/// a few microseconds each (reading a pipe, splitting lines, resuming a waiter).
final class RunnerExecutor: TaskExecutor {
    /// The one executor of the runner.
    static let shared = RunnerExecutor()

    private let queue = DispatchQueue(label: "ProcessRunner")

    /// Runs `job` on the runner's queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
