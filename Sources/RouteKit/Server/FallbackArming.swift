import Logging
import PulseAudio

/// Where the engine arms its standing fallback (``StandingFallback``): a connection that
/// makes the fallback the default the moment the route's sink is removed, before the engine
/// has read anything. `PulseAudio.FallbackConnection` is the real one
/// (``AudioServer/openFallbackConnection(logger:)``).
public protocol FallbackArming: Sendable {
    /// Arms `order` in place of the one armed; nil disarms.
    func arm(_ order: StandingFallback?)
    /// Closes it; an order armed is dropped.
    func shutdown()
}

extension FallbackConnection: FallbackArming {}

extension AudioServer {
    /// None: the engine decides every removal from the events alone.
    public func openFallbackConnection(logger: Logger) async -> (any FallbackArming)? { nil }
}

extension PulseClient {
    /// A ``FallbackConnection`` to this client's server, connected; nil when it cannot connect
    /// (the engine then decides every removal from the events alone, as before).
    public func openFallbackConnection(logger: Logger) async -> (any FallbackArming)? {
        let connection = FallbackConnection(server: server, logger: logger)
        do {
            try await connection.connect()
            return connection
        } catch {
            logger.notice("no standing fallback: its connection failed", metadata: ["error": "\(error)"])
            await withTaskExecutorPreference(globalConcurrentExecutor) { connection.shutdown() }
            return nil
        }
    }
}
