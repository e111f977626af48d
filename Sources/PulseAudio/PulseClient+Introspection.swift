import CPulseAudio

extension PulseClient {
    /// The server's name, version and default sink and source.
    public func serverInfo() async throws -> ServerInfo {
        try await core.perform(PendingOperation<ServerInfo>(label: "get server info")) { context, userdata in
            pa_context_get_server_info(context, serverInfoCallback, userdata)
        }
    }

    /// Every sink.
    public func sinks() async throws -> [SinkInfo] {
        try await core.perform(ListOperation<SinkInfo>(label: "list sinks")) { context, userdata in
            pa_context_get_sink_info_list(context, sinkInfoCallback, userdata)
        }
    }

    /// The sink called `name`, or nil when there is none.
    public func sink(named name: String) async throws -> SinkInfo? {
        try await lookUp(ListOperation<SinkInfo>(label: "get sink \"\(name)\"")) { context, userdata in
            pa_context_get_sink_info_by_name(context, name, sinkInfoCallback, userdata)
        }
    }

    /// The sink at `index`, or nil when there is none.
    public func sink(at index: UInt32) async throws -> SinkInfo? {
        try await lookUp(ListOperation<SinkInfo>(label: "get sink #\(index)")) { context, userdata in
            pa_context_get_sink_info_by_index(context, index, sinkInfoCallback, userdata)
        }
    }

    /// Every source, monitors included (``SourceInfo/isMonitor`` tells them apart).
    public func sources() async throws -> [SourceInfo] {
        try await core.perform(ListOperation<SourceInfo>(label: "list sources")) { context, userdata in
            pa_context_get_source_info_list(context, sourceInfoCallback, userdata)
        }
    }

    /// The source called `name`, or nil when there is none.
    public func source(named name: String) async throws -> SourceInfo? {
        try await lookUp(ListOperation<SourceInfo>(label: "get source \"\(name)\"")) { context, userdata in
            pa_context_get_source_info_by_name(context, name, sourceInfoCallback, userdata)
        }
    }

    /// The source at `index`, or nil when there is none.
    public func source(at index: UInt32) async throws -> SourceInfo? {
        try await lookUp(ListOperation<SourceInfo>(label: "get source #\(index)")) { context, userdata in
            pa_context_get_source_info_by_index(context, index, sourceInfoCallback, userdata)
        }
    }

    /// Every card, with its profiles and ports.
    public func cards() async throws -> [CardInfo] {
        try await core.perform(ListOperation<CardInfo>(label: "list cards")) { context, userdata in
            pa_context_get_card_info_list(context, cardInfoCallback, userdata)
        }
    }

    /// The card called `name`, or nil when there is none.
    public func card(named name: String) async throws -> CardInfo? {
        try await lookUp(ListOperation<CardInfo>(label: "get card \"\(name)\"")) { context, userdata in
            pa_context_get_card_info_by_name(context, name, cardInfoCallback, userdata)
        }
    }

    /// The card at `index`, or nil when there is none.
    public func card(at index: UInt32) async throws -> CardInfo? {
        try await lookUp(ListOperation<CardInfo>(label: "get card #\(index)")) { context, userdata in
            pa_context_get_card_info_by_index(context, index, cardInfoCallback, userdata)
        }
    }

    /// Every playback stream.
    public func sinkInputs() async throws -> [SinkInputInfo] {
        try await core.perform(ListOperation<SinkInputInfo>(label: "list sink inputs")) { context, userdata in
            pa_context_get_sink_input_info_list(context, sinkInputInfoCallback, userdata)
        }
    }

    /// The playback stream at `index`, or nil when there is none.
    public func sinkInput(at index: UInt32) async throws -> SinkInputInfo? {
        try await lookUp(ListOperation<SinkInputInfo>(label: "get sink input #\(index)")) { context, userdata in
            pa_context_get_sink_input_info(context, index, sinkInputInfoCallback, userdata)
        }
    }

    /// Every recording stream.
    public func sourceOutputs() async throws -> [SourceOutputInfo] {
        try await core.perform(ListOperation<SourceOutputInfo>(label: "list source outputs")) { context, userdata in
            pa_context_get_source_output_info_list(context, sourceOutputInfoCallback, userdata)
        }
    }

    /// The recording stream at `index`, or nil when there is none.
    public func sourceOutput(at index: UInt32) async throws -> SourceOutputInfo? {
        try await lookUp(ListOperation<SourceOutputInfo>(label: "get source output #\(index)")) { context, userdata in
            pa_context_get_source_output_info(context, index, sourceOutputInfoCallback, userdata)
        }
    }

    /// Every client connected to the server.
    public func clients() async throws -> [ClientInfo] {
        try await core.perform(ListOperation<ClientInfo>(label: "list clients")) { context, userdata in
            pa_context_get_client_info_list(context, clientInfoCallback, userdata)
        }
    }

    /// Every module loaded in the server.
    public func modules() async throws -> [ModuleInfo] {
        try await core.perform(ListOperation<ModuleInfo>(label: "list modules")) { context, userdata in
            pa_context_get_module_info_list(context, moduleInfoCallback, userdata)
        }
    }

    /// One entry, or nil when the server says it has no such entity.
    private func lookUp<Element: Sendable>(
        _ operation: ListOperation<Element>,
        _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) async throws -> Element? {
        do {
            return try await core.perform(operation, start).first
        } catch let error as PulseError where error.code == .noSuchEntity {
            return nil
        }
    }
}
