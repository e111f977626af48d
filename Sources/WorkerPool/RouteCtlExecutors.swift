@_spi(ExperimentalCustomExecutors) import _Concurrency
import Glibc

/// The executors of the `routectl` executable: its own ``WorkerPoolExecutor`` as Swift's
/// default (global concurrent) executor, and Swift's own main executor (libdispatch's main
/// queue, which wakes for nothing while idle). Only `routectl`'s `main` installs them;
/// applications that embed RouteKit keep whatever executors they chose.
///
/// Built on Swift 6.3's experimental `ExecutorFactory` (`@_spi(ExperimentalCustomExecutors)`,
/// SE-0471's pitch). The compiler installs a factory by itself only from a top-level
/// `DefaultExecutorFactory` type alias, and on Linux only with availability checking off;
/// ``run(_:)`` calls the runtime's `_createExecutors(factory:)` itself, as the compiler's
/// async `main` would, before the first task exists.
package enum RouteCtlExecutors: ExecutorFactory {
    private static let pool = WorkerPoolExecutor.forThisMachine(name: "routectl")

    /// Swift's own main executor.
    package static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }

    /// The worker pool.
    package static var defaultExecutor: any TaskExecutor { pool }

    /// Installs the executors, runs `body` as the process's first task, then exits 0 when it
    /// returns (`body` exits by itself on failure, as ArgumentParser's `main` does). Call it
    /// first thing in a synchronous `main`.
    package static func run(_ body: @escaping @Sendable () async -> Void) -> Never {
        _createExecutors(factory: RouteCtlExecutors.self)
        Task {
            await body()
            exit(0)
        }
        // Runs the main queue, and never returns: the task above ends the process.
        try! MainActor.executor.run()
        fatalError("routectl: the main executor returned")
    }
}
