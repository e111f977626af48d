import Foundation
import Glibc
@testable import WorkerPool
import Synchronization
import Testing

/// routectl's worker pool on real threads, as a task executor tasks prefer (the tests' own
/// global executor stays Swift's): it runs every job, on its own threads and no more of them
/// than its width, with every asynchronous signal blocked, and its idle threads make no
/// context switch at all.
@Suite("routectl's worker pool executor")
struct WorkerPoolExecutorTests {
    /// What a job saw of the thread it ran on.
    struct Sighting: Sendable, Hashable {
        var threadID: pid_t
        var name: String
        var blocksTermination: Bool
        var blocksHangUp: Bool
        var blocksSegmentationFault: Bool

        static func here() -> Sighting {
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            // The thread's id is the first field of its stat (Glibc's module has no gettid).
            let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
            let threadID = pid_t(stat.split(separator: " ").first ?? "") ?? 0
            return Sighting(threadID: threadID, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
                            blocksTermination: sigismember(&mask, SIGTERM) == 1,
                            blocksHangUp: sigismember(&mask, SIGHUP) == 1,
                            blocksSegmentationFault: sigismember(&mask, SIGSEGV) == 1)
        }
    }

    /// How many jobs run now, and the most that ran at once.
    final class Concurrency: Sendable {
        let running = Atomic(0)
        let peak = Atomic(0)
    }

    /// Runs `count` child tasks that prefer `pool`; each stays busy for a moment, so that
    /// they overlap, and reports its thread. Returns the sightings and the most that ran at once.
    static func fanOut(_ count: Int, on pool: WorkerPoolExecutor) async -> (sightings: [Sighting], peak: Int) {
        let concurrency = Concurrency()
        let sightings = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: Sighting.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        let now = concurrency.running.add(1, ordering: .relaxed).newValue
                        concurrency.peak.max(now, ordering: .relaxed)
                        let until = ContinuousClock.now + .milliseconds(2)
                        while ContinuousClock.now < until {}
                        concurrency.running.subtract(1, ordering: .relaxed)
                        return Sighting.here()
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        return (sightings, concurrency.peak.load(ordering: .relaxed))
    }

    @Test("runs every job on its own named threads, never more of them than its width")
    func runsOnItsThreads() async {
        let pool = WorkerPoolExecutor(width: 3, name: "pool-test")
        let (sightings, peak) = await Self.fanOut(200, on: pool)
        #expect(sightings.count == 200)
        #expect(Set(sightings.map(\.name)) == ["pool-test"])
        let threads = Set(sightings.map(\.threadID))
        #expect(threads.count <= 3, "\(threads.count) threads")
        #expect(peak <= 3)
    }

    @Test("its threads block SIGTERM and SIGHUP, which libdispatch's signalfd must receive, and not SIGSEGV")
    func blocksSignals() async {
        let pool = WorkerPoolExecutor(width: 2, name: "pool-signals")
        let (sightings, _) = await Self.fanOut(20, on: pool)
        #expect(sightings.allSatisfy { $0.blocksTermination && $0.blocksHangUp })
        #expect(sightings.allSatisfy { !$0.blocksSegmentationFault })
    }

    @Test("idle, its threads make no context switch (libdispatch's pool wakes once a second)")
    func idleThreadsSleep() async throws {
        let pool = WorkerPoolExecutor(width: 2, name: "pool-idle")
        let threads = Set(await Self.fanOut(20, on: pool).sightings.map(\.threadID))
        try #require(!threads.isEmpty)
        // Let the last jobs' threads reach their wait, then watch longer than libdispatch's
        // one-second monitor period: measuring idleness takes a span of time.
        try await Task.sleep(for: .milliseconds(200))
        let before = threads.map(Self.contextSwitches)
        try await Task.sleep(for: .milliseconds(1_500))
        let after = threads.map(Self.contextSwitches)
        #expect(before == after, "context switches of \(threads.sorted()): \(before) then \(after)")
    }

    /// Voluntary plus involuntary context switches of thread `id` of this process.
    static func contextSwitches(_ id: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n")
            .filter { $0.contains("ctxt_switches:") }
            .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
            .reduce(0, +)
    }
}
