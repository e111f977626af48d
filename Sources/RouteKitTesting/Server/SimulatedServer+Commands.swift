import PulseAudio

/// The commands, with `PulseClient`'s signatures and PulseAudio 16's answers.
extension SimulatedServer {
    /// Makes `sink` the default sink (the configured default, kept while the sink is away).
    public func setDefaultSink(_ sink: String) async throws {
        try run(.setDefaultSink(sink))
    }

    /// Makes `source` the default source.
    public func setDefaultSource(_ source: String) async throws {
        try run(.setDefaultSource(source))
    }

    /// A default sink request without a name: as PulseAudio 16, the current default becomes
    /// the configured one (fails with no such entity when there is no default).
    public func resetDefaultSink() async throws {
        try run(.resetDefaultSink)
    }

    /// A default source request without a name: the current default becomes the configured one.
    public func resetDefaultSource() async throws {
        try run(.resetDefaultSource)
    }

    /// Moves playback stream `sinkInput` to `sink`; the stream then prefers that sink, unless
    /// it is the default.
    public func moveSinkInput(_ sinkInput: UInt32, toSink sink: String) async throws {
        try run(.moveSinkInput(sinkInput, toSink: sink))
    }

    /// Moves recording stream `sourceOutput` to `source`.
    public func moveSourceOutput(_ sourceOutput: UInt32, toSource source: String) async throws {
        try run(.moveSourceOutput(sourceOutput, toSource: source))
    }

    /// Switches `sink` to its port `port` (a device without ports answers "Missing implementation").
    public func setSinkPort(_ sink: String, port: String) async throws {
        try run(.setSinkPort(sink, port: port))
    }

    /// Switches `source` to its port `port`.
    public func setSourcePort(_ source: String, port: String) async throws {
        try run(.setSourcePort(source, port: port))
    }

    /// Switches `card` to its profile `profile`. A Bluetooth card refuses a profile that is not
    /// available with "Input/Output error" (`PA_ERR_IO`), as `module-bluez5-device` does.
    public func setCardProfile(_ card: String, profile: String) async throws {
        try run(.setCardProfile(card, profile: profile))
    }

    /// Mutes or unmutes `sink`.
    public func setSinkMute(_ sink: String, muted: Bool) async throws {
        try run(.setSinkMute(sink, muted: muted))
    }

    /// Mutes or unmutes `source`.
    public func setSourceMute(_ source: String, muted: Bool) async throws {
        try run(.setSourceMute(source, muted: muted))
    }

    /// Mutes or unmutes playback stream `sinkInput`.
    public func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws {
        try run(.setSinkInputMute(sinkInput, muted: muted))
    }

    /// Mutes or unmutes recording stream `sourceOutput`.
    public func setSourceOutputMute(_ sourceOutput: UInt32, muted: Bool) async throws {
        try run(.setSourceOutputMute(sourceOutput, muted: muted))
    }

    /// Sets the volume of `sink`: one value for every channel, or one value a channel.
    public func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws {
        try run(.setSinkVolume(sink, volume))
    }

    /// Sets the volume of `source`.
    public func setSourceVolume(_ source: String, _ volume: ChannelVolumes) async throws {
        try run(.setSourceVolume(source, volume))
    }

    /// Sets the volume of playback stream `sinkInput`.
    public func setSinkInputVolume(_ sinkInput: UInt32, _ volume: ChannelVolumes) async throws {
        try run(.setSinkInputVolume(sinkInput, volume))
    }
}
