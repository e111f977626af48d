import ConcurrencySupport
import PulseAudio
import Synchronization

/// Scripting the connection: the server going away, coming back, restarting; and the end.
extension SimulatedServer {
    /// The server goes away: streams from ``events()`` get
    /// `.connectionStateChanged(.reconnecting(attempt: 1, lastError:))` with
    /// ``PulseError/Code/connectionTerminated``, as from `PulseClient`; until ``reconnect()``
    /// every request throws ``PulseError/Code/badState``, and changes scripted meanwhile are
    /// not announced.
    public func disconnect() {
        let error = PulseError(.connectionTerminated, operation: "connect to the simulated server")
        setConnection(.reconnecting(attempt: 1, lastError: error))
    }

    /// The client is connected again: `.connectionStateChanged(.ready)`. Re-read what you cache.
    public func reconnect() {
        setConnection(.ready)
    }

    /// The server restarts: ``disconnect()``, then a fresh server with the same hardware
    /// (cards in their current profile and port state, devices with new indexes, the
    /// configured defaults kept as `module-default-device-restore` keeps them), no streams
    /// and no clients, a new cookie, then ``reconnect()``.
    public func simulateServerRestart() {
        disconnect()
        state.withLock { server in
            server.simulation = ServerRestart.rebuild(server.simulation)
        }
        reconnect()
    }

    /// Ends the simulated connection, as `PulseClient.shutdown()` does: event streams get
    /// `.connectionStateChanged(.shutDown)` and finish; later requests throw
    /// ``PulseError/Code/connectionTerminated``.
    public func shutdown() {
        setConnection(.shutDown)
        hub.finish()
    }

    private func setConnection(_ connection: ConnectionState) {
        state.withLock { server in
            guard server.connection != connection, server.connection != .shutDown else { return }
            server.connection = connection
            hub.yield([.connectionStateChanged(connection)])
        }
    }
}
