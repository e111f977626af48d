import Dispatch

/// Where one child's steps run: a serial dispatch queue of its own, off Swift's cooperative
/// pool, one for each child as the supervising thread of each child was before.
///
/// Every step of running a child (the spawn's answer, each read of its output, its exit, its
/// reaping) is a job. On the cooperative pool (as many threads as cores) those jobs queue
/// behind whatever else the process is doing, and one queue shared by every child would make
/// them queue behind each other's; a serial queue per child gets a thread from the kernel's
/// scheduler when it has work, and none when it has not.
final class RunnerExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "ProcessRunner")

    /// Runs `job` on this child's queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
