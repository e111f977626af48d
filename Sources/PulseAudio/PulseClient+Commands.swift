import CPulseAudio

extension PulseClient {
    /// Makes `sink` the default sink. (On PipeWire this also becomes the user's configured
    /// default, which outlives this client: restore it yourself when that matters.)
    public func setDefaultSink(_ sink: String) async throws {
        try await command("set default sink to \"\(sink)\"") { context, userdata in
            pa_context_set_default_sink(context, sink, successCallback, userdata)
        }
    }

    /// Makes `source` the default source.
    public func setDefaultSource(_ source: String) async throws {
        try await command("set default source to \"\(source)\"") { context, userdata in
            pa_context_set_default_source(context, source, successCallback, userdata)
        }
    }

    /// Sends a default sink request without a name. On PipeWire this forgets the configured
    /// default (`default.configured.audio.sink` is cleared and WirePlumber chooses again). On
    /// PulseAudio 16 a missing name stands for the current default (`pa_namereg_get`), which
    /// becomes the configured one: the protocol has no way to forget it.
    public func resetDefaultSink() async throws {
        try await command("reset the default sink") { context, userdata in
            pa_context_set_default_sink(context, nil, successCallback, userdata)
        }
    }

    /// Sends a default source request without a name: see ``resetDefaultSink()``.
    public func resetDefaultSource() async throws {
        try await command("reset the default source") { context, userdata in
            pa_context_set_default_source(context, nil, successCallback, userdata)
        }
    }

    /// Moves playback stream `sinkInput` to `sink`.
    public func moveSinkInput(_ sinkInput: UInt32, toSink sink: String) async throws {
        try await command("move sink input #\(sinkInput) to sink \"\(sink)\"") { context, userdata in
            pa_context_move_sink_input_by_name(context, sinkInput, sink, successCallback, userdata)
        }
    }

    /// Moves recording stream `sourceOutput` to `source`.
    public func moveSourceOutput(_ sourceOutput: UInt32, toSource source: String) async throws {
        try await command("move source output #\(sourceOutput) to source \"\(source)\"") { context, userdata in
            pa_context_move_source_output_by_name(context, sourceOutput, source, successCallback, userdata)
        }
    }

    /// Switches `sink` to its port `port`.
    public func setSinkPort(_ sink: String, port: String) async throws {
        try await command("set port of sink \"\(sink)\" to \"\(port)\"") { context, userdata in
            pa_context_set_sink_port_by_name(context, sink, port, successCallback, userdata)
        }
    }

    /// Switches `source` to its port `port`.
    public func setSourcePort(_ source: String, port: String) async throws {
        try await command("set port of source \"\(source)\" to \"\(port)\"") { context, userdata in
            pa_context_set_source_port_by_name(context, source, port, successCallback, userdata)
        }
    }

    /// Switches `card` to its profile `profile` (for example a Bluetooth headset from
    /// `a2dp-sink` to `headset-head-unit`).
    public func setCardProfile(_ card: String, profile: String) async throws {
        try await command("set profile of card \"\(card)\" to \"\(profile)\"") { context, userdata in
            pa_context_set_card_profile_by_name(context, card, profile, successCallback, userdata)
        }
    }

    /// Mutes or unmutes `sink`.
    public func setSinkMute(_ sink: String, muted: Bool) async throws {
        try await command("\(muted ? "mute" : "unmute") sink \"\(sink)\"") { context, userdata in
            pa_context_set_sink_mute_by_name(context, sink, muted ? 1 : 0, successCallback, userdata)
        }
    }

    /// Mutes or unmutes `source`.
    public func setSourceMute(_ source: String, muted: Bool) async throws {
        try await command("\(muted ? "mute" : "unmute") source \"\(source)\"") { context, userdata in
            pa_context_set_source_mute_by_name(context, source, muted ? 1 : 0, successCallback, userdata)
        }
    }

    /// Mutes or unmutes playback stream `sinkInput`.
    public func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws {
        try await command("\(muted ? "mute" : "unmute") sink input #\(sinkInput)") { context, userdata in
            pa_context_set_sink_input_mute(context, sinkInput, muted ? 1 : 0, successCallback, userdata)
        }
    }

    /// Mutes or unmutes recording stream `sourceOutput`.
    public func setSourceOutputMute(_ sourceOutput: UInt32, muted: Bool) async throws {
        try await command("\(muted ? "mute" : "unmute") source output #\(sourceOutput)") { context, userdata in
            pa_context_set_source_output_mute(context, sourceOutput, muted ? 1 : 0, successCallback, userdata)
        }
    }

    /// Sets the volume of `sink`. One value sets every channel alike; otherwise give one
    /// value a channel.
    public func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws {
        let label = "set volume of sink \"\(sink)\" to \(volume)"
        var cVolume = try Self.cVolume(volume, label)
        try await command(label) { context, userdata in
            pa_context_set_sink_volume_by_name(context, sink, &cVolume, successCallback, userdata)
        }
    }

    /// Sets the volume of `source`.
    public func setSourceVolume(_ source: String, _ volume: ChannelVolumes) async throws {
        let label = "set volume of source \"\(source)\" to \(volume)"
        var cVolume = try Self.cVolume(volume, label)
        try await command(label) { context, userdata in
            pa_context_set_source_volume_by_name(context, source, &cVolume, successCallback, userdata)
        }
    }

    /// Sets the volume of playback stream `sinkInput`.
    public func setSinkInputVolume(_ sinkInput: UInt32, _ volume: ChannelVolumes) async throws {
        let label = "set volume of sink input #\(sinkInput) to \(volume)"
        var cVolume = try Self.cVolume(volume, label)
        try await command(label) { context, userdata in
            pa_context_set_sink_input_volume(context, sinkInput, &cVolume, successCallback, userdata)
        }
    }

    /// Loads module `name` with `arguments` (for example `module-null-sink`,
    /// `sink_name=test`) and returns its index.
    @discardableResult
    public func loadModule(_ name: String, arguments: String = "") async throws -> UInt32 {
        try await core.perform(PendingOperation<UInt32>(label: "load module \(name) \(arguments)")) { context, userdata in
            pa_context_load_module(context, name, arguments, indexCallback, userdata)
        }
    }

    /// Unloads the module at `index`.
    public func unloadModule(_ index: UInt32) async throws {
        try await command("unload module #\(index)") { context, userdata in
            pa_context_unload_module(context, index, successCallback, userdata)
        }
    }

    private func command(
        _ label: String,
        _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) async throws {
        try await core.perform(PendingOperation<Void>(label: label), start)
    }

    private static func cVolume(_ volume: ChannelVolumes, _ label: String) throws -> pa_cvolume {
        guard let cVolume = volume.cValue() else {
            throw PulseError(.invalidArgument, operation: label,
                             reason: "a volume needs 1 to \(PA_CHANNELS_MAX) channels, each at most \(PA_VOLUME_MAX)")
        }
        return cVolume
    }
}
