import ConcurrencySupport
import PulseAudio
import Synchronization

/// Scripting streams and the clients that own them.
extension SimulatedServer {
    /// Starts a playback stream on `sink` (the default sink when nil) and returns it. Without
    /// `client`, a client connects for it first and leaves with it, as `pacat` does: the
    /// client's new, its change, then the stream's new and the sink's change, in three
    /// main-loop iterations, as on a real server.
    @discardableResult
    public func addSinkInput(_ stream: StreamBlueprint = StreamBlueprint(), sink: String? = nil,
                             client: UInt32? = nil) throws(SimulationError) -> SinkInputInfo {
        let index = try addStream(.output, stream, device: sink, client: client)
        return state.withLock { $0.simulation.sinkInputInfo($0.simulation.streams.output[index]!) }
    }

    /// Ends playback stream `index`; a client connected for it leaves too.
    public func removeSinkInput(_ index: UInt32) throws(SimulationError) {
        try removeStream(.output, index)
    }

    /// Pauses or resumes playback stream `index`, as its application would (`pa_stream_cork`).
    public func setSinkInputCorked(_ index: UInt32, _ corked: Bool) throws(SimulationError) {
        try setStreamCorked(.output, index, corked)
    }

    /// Starts a recording stream on `source` (the default source when nil) and returns it;
    /// a client is connected for it unless `client` is given.
    @discardableResult
    public func addSourceOutput(_ stream: StreamBlueprint = StreamBlueprint(name: "Record"), source: String? = nil,
                                client: UInt32? = nil) throws(SimulationError) -> SourceOutputInfo {
        let index = try addStream(.input, stream, device: source, client: client)
        return state.withLock { $0.simulation.sourceOutputInfo($0.simulation.streams.input[index]!) }
    }

    /// Ends recording stream `index`; a client connected for it leaves too.
    public func removeSourceOutput(_ index: UInt32) throws(SimulationError) {
        try removeStream(.input, index)
    }

    /// Pauses or resumes recording stream `index`.
    public func setSourceOutputCorked(_ index: UInt32, _ corked: Bool) throws(SimulationError) {
        try setStreamCorked(.input, index, corked)
    }

    /// Connects a client (an application) and returns it: its new, then its change.
    @discardableResult
    public func connectClient(name: String, properties: [String: String] = [:]) -> ClientInfo {
        perform { state in
            let index = Self.connect(name: name, properties: properties, in: &state)
            return state.clientInfos.first { $0.index == index }!
        }
    }

    /// Disconnects client `index`: its streams end, then it leaves.
    public func disconnectClient(_ index: UInt32) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard state.clients[index] != nil else { throw SimulationError("there is no client #\(index)") }
            state.removeClient(index)
        }
    }

    private static func connect(name: String, properties: [String: String], in state: inout SimulationState) -> UInt32 {
        var properties = properties
        properties["application.name"] = properties["application.name"] ?? name
        properties["native-protocol.peer"] = properties["native-protocol.peer"] ?? "UNIX socket client"
        let index = state.addClient(name: name, properties: properties)
        state.post(.client, .new, index)
        state.endIteration()
        // The client's name and properties arrive in a second request.
        state.post(.client, .change, index)
        state.endIteration()
        return index
    }

    private func addStream(_ side: Side, _ blueprint: StreamBlueprint, device name: String?,
                           client: UInt32?) throws(SimulationError) -> UInt32 {
        try perform { (state: inout SimulationState) throws(SimulationError) -> UInt32 in
            let target: DeviceRecord?
            if let name {
                target = state.device(side, named: name)
            } else {
                target = state.defaultDevice[side].flatMap { state.devices[side][$0] }
            }
            guard let target else {
                throw SimulationError(name.map { "there is no \(side.deviceNoun) \"\($0)\"" }
                                      ?? "there is no default \(side.deviceNoun) to start a stream on")
            }
            if let client, state.clients[client] == nil {
                throw SimulationError("there is no client #\(client)")
            }
            let owner = client ?? Self.connect(name: blueprint.applicationName,
                                               properties: ["application.name": blueprint.applicationName], in: &state)
            var properties = blueprint.properties
            properties["media.name"] = properties["media.name"] ?? blueprint.name
            properties["application.name"] = properties["application.name"] ?? blueprint.applicationName
            let stream = StreamRecord(index: state.allocateStreamIndex(side), side: side, name: blueprint.name, client: owner,
                                      module: 0, device: target.index, volume: blueprint.volume, isMuted: blueprint.isMuted,
                                      isCorked: blueprint.isCorked, properties: properties, preferredDevice: nil,
                                      arrival: state.nextArrival(), ownsClient: client == nil)
            state.putStream(stream)
            return stream.index
        }
    }

    private func removeStream(_ side: Side, _ index: UInt32) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let stream = state.streams[side][index] else {
                throw SimulationError("there is no \(side.streamNoun) #\(index)")
            }
            let others = Side.allCases.contains { other in
                state.streams[other].values.contains { $0.client == stream.client && !($0.side == side && $0.index == index) }
            }
            if stream.ownsClient, let client = stream.client, !others {
                state.removeClient(client)
            } else {
                state.unlinkStream(side, index)
            }
        }
    }

    private func setStreamCorked(_ side: Side, _ index: UInt32, _ corked: Bool) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard state.streams[side][index] != nil else { throw SimulationError("there is no \(side.streamNoun) #\(index)") }
            state.setCorked(side, index, corked)
        }
    }
}
