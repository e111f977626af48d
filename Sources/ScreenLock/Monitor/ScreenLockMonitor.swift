import DBus
import Logging

/// Whether the screen is locked and the user idle, from systemd-logind's session on the system
/// bus and the desktop's screensaver on the session bus, kept up to date while ``run()`` runs.
///
/// ```swift
/// let monitor = ScreenLockMonitor(logger: logger)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await monitor.run() }
///     for await state in monitor.changes() where state.lock == .locked { … }
/// }
/// ```
///
/// ``run()`` opens its own connections, follows every source and returns once the calling task
/// is cancelled, closing them — the shape of a swift-service-lifecycle `Service`, so a service
/// group can run it (`extension ScreenLockMonitor: Service {}`). The long-running work is tied to
/// `run()` rather than to tasks stored in the monitor: whoever runs it owns its lifetime and sees
/// it end, nothing outlives it, and cancelling is the one way to stop it. Each source's watcher
/// is a child task of `run()`, and the state they make has one owner: `run()`'s loop, which
/// combines their answers (``ScreenLockState/init(combining:)``) and publishes real changes only.
public final class ScreenLockMonitor: Sendable {
    /// Where it looks.
    public let configuration: ScreenLockConfiguration
    private let logger: Logger
    private let broadcast = StateBroadcast()

    /// A monitor of `configuration`'s sources; nothing is followed until ``run()``.
    public init(configuration: ScreenLockConfiguration = ScreenLockConfiguration(),
                logger: Logger = Logger(label: "routekit.screenlock")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// The state now: ``ScreenLockState/unknown`` until a source answers, and after ``run()`` ends.
    public var state: ScreenLockState { broadcast.state }

    /// Every change of ``state`` from now on, each a real change (never the same state twice in
    /// a row). Subscribe before reading ``state`` so that no change falls between the two. The
    /// sequence ends when ``run()`` ends.
    public func changes() -> AsyncStream<ScreenLockState> {
        broadcast.subscribe()
    }

    /// Follows the sources until the calling task is cancelled; a source whose bus cannot be
    /// reached or is lost stays unknown. Call it once: when it returns, ``state`` is unknown and
    /// ``changes()`` sequences end.
    public func run() async {
        let (reports, reporter) = AsyncStream.makeStream(of: (SourceSlot, SourceAnswer?).self)
        var sources = ScreenLockSources(order: configuration.slots)
        await withDiscardingTaskGroup { group in
            group.addTask {
                await self.watchAll { slot, answer in reporter.yield((slot, answer)) }
                reporter.finish()
            }
            for await (slot, answer) in reports {
                guard let changed = sources.record(answer, from: slot) else { continue }
                logger.info("screen lock state changed", metadata: ["state": "\(changed)"])
                broadcast.publish(changed)
            }
        }
        if broadcast.state != .unknown { broadcast.publish(.unknown) }
        broadcast.finish()
    }

    /// Runs a watcher per bus until cancelled, then waits for cancellation if they all ended.
    private func watchAll(_ report: @escaping @Sendable (SourceSlot, SourceAnswer?) -> Void) async {
        await withDiscardingTaskGroup { group in
            if let address = configuration.systemBus {
                group.addTask { await self.watchSystemBus(address, report) }
            }
            if let address = configuration.sessionBus, !configuration.screenSavers.isEmpty {
                group.addTask { await self.watchSessionBus(address, report) }
            }
        }
        // Every bus is gone or was never there: nothing more will be reported, but run() keeps
        // to its contract of ending on cancellation. An AsyncStream's iteration ends then.
        let (cancelled, keeper) = AsyncStream.makeStream(of: Never.self)
        for await _ in cancelled {}
        keeper.finish()
    }

    private func watchSystemBus(_ address: BusAddress,
                                _ report: @escaping @Sendable (SourceSlot, SourceAnswer?) -> Void) async {
        await following(address) { connection in
            await LogindWatcher(connection: connection, lookups: self.configuration.sessionLookups, logger: self.logger,
                                report: { report(.logind, $0) }).run()
        }
    }

    private func watchSessionBus(_ address: BusAddress,
                                 _ report: @escaping @Sendable (SourceSlot, SourceAnswer?) -> Void) async {
        await following(address) { connection in
            await withDiscardingTaskGroup { group in
                for service in self.configuration.screenSavers {
                    group.addTask {
                        await ScreenSaverWatcher(connection: connection, service: service, logger: self.logger,
                                                 report: { report(.screenSaver(service), $0) }).run()
                    }
                }
            }
        }
    }

    /// Runs `watch` on a connection to `address` until the connection ends (its watchers
    /// then report their sources unknown), and again on a new one each time the bus comes
    /// back (``BusComeback``), until cancelled. A bus that cannot be reached at first is not
    /// waited for: its sources stay unknown.
    private func following(_ address: BusAddress, _ watch: @escaping @Sendable (BusConnection) async -> Void) async {
        guard var connection = await open(address) else { return }
        var comeback = BusComeback(address: address)
        while true {
            await watch(connection)
            await connection.close()
            guard !Task.isCancelled else { return }
            logger.info("screen lock sources on this bus are unknown until it is back", metadata: ["bus": "\(address)"])
            while true {
                do { try await comeback.wait() } catch { return }
                if let again = try? await BusConnection.open(address, logger: logger) {
                    connection = again
                    comeback.reset()
                    logger.info("screen lock sources on this bus are followed again", metadata: ["bus": "\(address)"])
                    break
                }
            }
        }
    }

    private func open(_ address: BusAddress) async -> BusConnection? {
        do {
            return try await BusConnection.open(address, logger: logger)
        } catch {
            logger.info("screen lock sources on this bus stay unknown", metadata: ["bus": "\(address)", "error": "\(error)"])
            return nil
        }
    }
}
