import ConcurrencySupport
import PulseAudio
import RouteKit

/// PipeWire's lost change of the default (Docs/Reliability.md, "The PipeWire default that
/// never reaches long-lived connections"): a change that WirePlumber or a settings panel makes
/// while another client connects reaches that client alone. Virtual devices show it only now
/// and then; here a test makes it happen when it wants.
extension SimulatedServer {
    /// Someone else makes `sink` the default while another client is connecting, on
    /// pipewire-pulse: the server's default changes (``serverInfoAfresh()`` reads it), but
    /// this connection never hears of it. No server change event comes, and ``serverInfo()``
    /// answers the defaults it had until ``renewConnection()`` or the next change of a default.
    /// Throws as ``setDefaultSink(_:)`` does for a sink that is not there.
    public func simulateMissedDefaultSink(_ sink: String) throws {
        try Self.checkNotCancelled()
        try state.withLock { (server: inout State) throws(PulseError) in
            try Self.checkConnected(server.connection, "set default sink (missed)")
            let before = server.missedDefaults ?? MissedDefaults(server.simulation.serverInfo(options))
            if let code = server.simulation.execute(.setDefaultSink(sink)) {
                throw PulseError(code, operation: "set default sink \"\(sink)\" (missed)")
            }
            let events = server.simulation.takeEvents().filter { $0.facility != .server }
            if server.connection == .ready { hub.yield(events.map(PulseEvent.subscription)) }
            server.missedDefaults = before
        }
    }

    /// The server's name, version and defaults as a client connecting now reads them: the
    /// defaults in force, whether or not this connection missed a change of them.
    public func serverInfoAfresh() throws -> ServerInfo {
        try read("get server info afresh") { $0.serverInfo(options) }
    }

    /// A reading on a connection made for it, as `PulseClient`'s: a client connects (its new
    /// and change events), reads the defaults in force, missed or not, and leaves (its remove).
    /// Counted among ``newConnectionReadings``.
    public func serverInfoOnNewConnection() async throws -> NewConnectionReading {
        try Self.checkNotCancelled()
        let client = connectClient(name: "RouteKit default check")
        defer { try? disconnectClient(client.index) }
        state.withLock { $0.newConnectionReadings += 1 }
        return NewConnectionReading(info: try serverInfoAfresh(), clientIndex: client.index)
    }

    /// How many readings ``serverInfoOnNewConnection()`` made.
    public var newConnectionReadings: Int { state.withLock { $0.newConnectionReadings } }

    /// Replaces the connection with a new one, as `PulseClient.renewConnection()` does: the
    /// new one reads the defaults in force (a missed change is read at last), and a server
    /// change event follows so that followers read them again. Throws as requests do when not
    /// connected; a cancelled task changes nothing.
    public func renewConnection() async throws {
        try Self.checkNotCancelled()
        try state.withLock { (server: inout State) throws(PulseError) in
            try Self.checkConnected(server.connection, "renew the connection")
            server.missedDefaults = nil
            hub.yield([.subscription(SubscriptionEvent(facility: .server, kind: .change, index: UInt32.max))])
        }
    }
}

extension SimulatedServer.MissedDefaults {
    init(_ info: ServerInfo) {
        self.init(sinkName: info.defaultSinkName, sourceName: info.defaultSourceName)
    }
}
