import ConcurrencySupport
import FoundationEssentials
import Glibc
import ProcessRunner
import Synchronization

extension SandboxServer {
    /// How long a process may take to exit after `SIGTERM` before it gets `SIGKILL`.
    static let terminationGracePeriod = Duration.seconds(3)

    /// Stops every process this sandbox started — in reverse start order, `SIGTERM` and,
    /// after 3 seconds, `SIGKILL`, by pid only — waits until each is reaped, and deletes the
    /// directory. Calling it again, even concurrently, waits for the same stop.
    public func stop() async {
        let stopping: Task<Void, Never>? = state.withLock { state in
            switch state.lifecycle {
            case .stopped:
                return nil
            case .stopping(let task):
                return task
            case .running:
                let task = Task { await self.stopEverything() }
                state.lifecycle = .stopping(task)
                return task
            }
        }
        await stopping?.value
    }

    private func stopEverything() async {
        let children = state.withLock { $0.children }
        for child in children.reversed() {
            await Self.terminate(child.process)
        }
        try? FileManager.default.removeItem(atPath: directory)
        state.withLock { state in
            state.children = []
            state.lifecycle = .stopped
        }
    }

    /// Ends `process` politely, then not, and waits until it is reaped (also when it had
    /// already exited: until then its pid is still taken).
    private static func terminate(_ process: ChildProcess) async {
        if process.signal(SIGTERM) {
            process.signal(SIGCONT)  // a frozen process handles SIGTERM only once continued
            if await process.completion(within: terminationGracePeriod) != nil { return }
            process.signal(SIGKILL)
        }
        _ = await process.completion(within: nil)
    }
}
