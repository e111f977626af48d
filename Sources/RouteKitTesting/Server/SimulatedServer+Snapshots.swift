import ConcurrencySupport
import PulseAudio

/// Reads, with `PulseClient`'s signatures: snapshots of the server's state now.
extension SimulatedServer {
    /// The server's name, version and defaults.
    public func serverInfo() async throws -> ServerInfo {
        try Self.checkNotCancelled()
        return try state.withLock { (server: inout State) throws(PulseError) -> ServerInfo in
            try Self.checkConnected(server.connection, "get server info")
            var info = server.simulation.serverInfo(options)
            if let missed = server.missedDefaults {
                info.defaultSinkName = missed.sinkName
                info.defaultSourceName = missed.sourceName
            }
            return info
        }
    }

    /// Every sink, in index order.
    public func sinks() async throws -> [SinkInfo] {
        try read("list sinks") { $0.sinkInfos }
    }

    /// The sink called `name`, nil when there is none.
    public func sink(named name: String) async throws -> SinkInfo? {
        try read("get sink \"\(name)\"") { state in state.device(.output, named: name).map(state.sinkInfo) }
    }

    /// The sink at `index`, nil when there is none.
    public func sink(at index: UInt32) async throws -> SinkInfo? {
        try read("get sink #\(index)") { state in state.devices.output[index].map(state.sinkInfo) }
    }

    /// Every source, monitors included, in index order.
    public func sources() async throws -> [SourceInfo] {
        try read("list sources") { $0.sourceInfos }
    }

    /// The source called `name`, nil when there is none.
    public func source(named name: String) async throws -> SourceInfo? {
        try read("get source \"\(name)\"") { state in state.device(.input, named: name).map(state.sourceInfo) }
    }

    /// The source at `index`, nil when there is none.
    public func source(at index: UInt32) async throws -> SourceInfo? {
        try read("get source #\(index)") { state in state.devices.input[index].map(state.sourceInfo) }
    }

    /// Every card, in index order.
    public func cards() async throws -> [CardInfo] {
        try read("list cards") { $0.cardInfos }
    }

    /// The card called `name`, nil when there is none.
    public func card(named name: String) async throws -> CardInfo? {
        try read("get card \"\(name)\"") { state in state.card(named: name).map(state.cardInfo) }
    }

    /// The card at `index`, nil when there is none.
    public func card(at index: UInt32) async throws -> CardInfo? {
        try read("get card #\(index)") { state in state.cards[index].map(state.cardInfo) }
    }

    /// Every playback stream, in index order.
    public func sinkInputs() async throws -> [SinkInputInfo] {
        try read("list sink inputs") { $0.sinkInputInfos }
    }

    /// The playback stream at `index`, nil when there is none.
    public func sinkInput(at index: UInt32) async throws -> SinkInputInfo? {
        try read("get sink input #\(index)") { state in state.streams.output[index].map(state.sinkInputInfo) }
    }

    /// Every recording stream, in index order.
    public func sourceOutputs() async throws -> [SourceOutputInfo] {
        try read("list source outputs") { $0.sourceOutputInfos }
    }

    /// The recording stream at `index`, nil when there is none.
    public func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo? {
        try read("get source output #\(index)") { state in state.streams.input[index].map(state.sourceOutputInfo) }
    }

    /// Every connected client, in index order.
    public func clients() async throws -> [ClientInfo] {
        try read("list clients") { $0.clientInfos }
    }

    /// Every loaded module, in index order.
    public func modules() async throws -> [ModuleInfo] {
        try read("list modules") { $0.moduleInfos }
    }
}
