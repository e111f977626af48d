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
    ///
    /// While readings are held (``holdNewConnectionReadings()``), a reading waits after its
    /// client connected, as one waits for a session manager that is slow to answer.
    public func serverInfoOnNewConnection() async throws -> NewConnectionReading {
        try Self.checkNotCancelled()
        // Counted before its client shows: whoever sees the client's events sees the count.
        state.withLock { $0.newConnectionReadings += 1 }
        let client = connectClient(name: "RouteKit default check")
        defer { try? disconnectClient(client.index) }
        let id = state.withLock { state in
            defer { state.nextHeldReading += 1 }
            return state.nextHeldReading
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    guard state.heldReadings != nil, !Task.isCancelled else { return false }
                    state.heldReadings?[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.heldReadings?.removeValue(forKey: id) }?.resume()
        }
        try Self.checkNotCancelled()
        return NewConnectionReading(info: try serverInfoAfresh(), clientIndex: client.index)
    }

    /// How many readings ``serverInfoOnNewConnection()`` started.
    public var newConnectionReadings: Int { state.withLock { $0.newConnectionReadings } }

    /// Readings on a new connection from now on wait, once their client has connected, until
    /// ``releaseNewConnectionReadings()``.
    public func holdNewConnectionReadings() {
        state.withLock { if $0.heldReadings == nil { $0.heldReadings = [:] } }
    }

    /// Lets every held reading answer, and readings from now on answer at once.
    public func releaseNewConnectionReadings() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.heldReadings = nil }
            return Array((state.heldReadings ?? [:]).values)
        }
        for reading in held { reading.resume() }
    }

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
